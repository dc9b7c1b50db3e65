// strace -c style statistics, rendered as a table or JSON. Two sources, kept apart:
//   - the sentry's own counts of the requests it handled and what it decided (systrap: the
//     sentry is another process, so these are authoritative);
//   - the stub's per-slot counters (calls, errors, times), which live in the shared region
//     the guest can write: advisory, whatever the platform. Under inproc nothing reaches the
//     sentry, so the whole document is advisory.
#ifndef SNARE_SENTRY_SYSCALL_STATS_H_
#define SNARE_SENTRY_SYSCALL_STATS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace snare::sentry {

// What the sentry handled for one syscall number, counted in its own memory.
struct SentryCounters {
  uint64_t calls = 0;   // requests answered
  uint64_t denied = 0;  // answered with an error by the policy
  uint64_t killed = 0;  // answered with kill
};

struct SyscallStatsRow {
  int nr = 0;
  std::string name;
  // The sentry's (authoritative where SyscallStats::authoritative).
  uint64_t sentry_calls = 0;
  uint64_t sentry_denied = 0;
  uint64_t sentry_killed = 0;
  // Seccomp user notifications the sentry answered (authoritative on every platform).
  uint64_t notified_calls = 0;
  // The stub's (advisory).
  uint64_t calls = 0;
  uint64_t errors = 0;
  uint64_t patched = 0;   // of calls, those from a patched site (no signal)
  uint64_t in_stub = 0;   // of patched, those the stub ran without asking the sentry
  double trap_ns = 0;     // total time in the trap path, excluding the syscall itself
  double syscall_ns = 0;  // total time executing passthrough syscalls
};

struct SyscallStats {
  std::string platform;
  bool authoritative = false;         // the sentry_* counts are the sentry's own
  bool notified = false;              // some calls took the notification path
  bool patched = false;               // some calls came through patched sites
  std::vector<SyscallStatsRow> rows;  // by sentry_calls (or, advisory only, calls), descending
  SyscallStatsRow total;
  // The sentry process itself.
  uint64_t sentry_peak_rss_kb = 0;
  uint64_t peak_tasks = 0;                      // guest threads served at once (systrap)
  std::optional<uint64_t> trace_lines_dropped;  // with --trace
  // CPU the sentry burned (every thread, from the launch to the end) against the guest's.
  double sentry_cpu_s = 0;
  double guest_cpu_s = 0;
  platform::Machine::IdleReport idling;
  // From snare's start to the first call that reached the sentry (the guest's launch: snare's
  // own setup, the guest's process, the stub's exec and loading); absent where none did.
  std::optional<double> first_call_ms;
  // From snare's start to the reaping of the guest's last process (its pid namespace gone).
  std::optional<double> reaped_ms;
};

// Sentry CPU seconds per guest CPU second (0 when the guest used none).
double CpuPerGuestCpu(const SyscallStats& stats);

// VmHWM of the calling process, in KiB (0 if unknown).
uint64_t PeakRssKb();

// Rows from the Machine's counters (indexed by syscall number; ns_per_tick converts the
// stubs' TSC ticks) and, when the sentry answered the traps, its own counts (indexed the
// same way; empty: none, everything is advisory).
// `notified`: what the notification path answered (empty: nothing was notified).
SyscallStats CollectStats(const std::vector<platform::SyscallCounters>& counters,
                          const std::vector<SentryCounters>& sentry, double ns_per_tick,
                          std::string platform, const std::vector<SentryCounters>& notified = {});

std::string RenderStatsTable(const SyscallStats& stats);
std::string RenderStatsJson(const SyscallStats& stats);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_SYSCALL_STATS_H_
