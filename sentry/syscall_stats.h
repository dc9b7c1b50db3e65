// strace -c style statistics: the per-syscall counters the platform keeps, rendered as a
// table or JSON.
#ifndef SNARE_SENTRY_SYSCALL_STATS_H_
#define SNARE_SENTRY_SYSCALL_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace snare::sentry {

struct SyscallStatsRow {
  int nr = 0;
  std::string name;
  uint64_t calls = 0;
  uint64_t errors = 0;
  double trap_ns = 0;     // total time in the trap path, excluding the syscall itself
  double syscall_ns = 0;  // total time executing passthrough syscalls
};

struct SyscallStats {
  std::string platform;
  std::vector<SyscallStatsRow> rows;  // by calls, descending
  SyscallStatsRow total;
  // The sentry process itself.
  uint64_t sentry_peak_rss_kb = 0;
  uint64_t peak_tasks = 0;  // guest threads served at once (systrap)
};

// VmHWM of the calling process, in KiB (0 if unknown).
uint64_t PeakRssKb();

// Rows from the Machine's counters (indexed by syscall number); ns_per_tick converts the
// stubs' TSC ticks.
SyscallStats CollectStats(const std::vector<platform::SyscallCounters>& counters,
                          double ns_per_tick, std::string platform);

std::string RenderStatsTable(const SyscallStats& stats);
std::string RenderStatsJson(const SyscallStats& stats);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_SYSCALL_STATS_H_
