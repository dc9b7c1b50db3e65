// How a guest's syscalls reach the sentry: interfaces only. One subfolder per mechanism
// implements them (systrap/, inproc/); registry/ picks one by name.
//
//   Platform  makes a Machine for one sandbox;
//   Machine   says how to start a guest under it, which guest threads trapped, and how
//             many calls it counted; it makes one Context per guest thread;
//   Context   is one guest thread as the sentry's Task sees it: Switch() answers the last
//             request and waits for the next.
//
// Threading: a Machine's methods are called from the sentry's dispatcher thread, except
// Wake(), which any thread may call. A Context is only used from its Task's fiber.
#ifndef SNARE_PLATFORM_PLATFORM_H_
#define SNARE_PLATFORM_PLATFORM_H_

#include <sys/types.h>

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "abi/syscall_table.h"
#include "policy/evaluator.h"
#include "policy/policy_table.h"
#include "policy/verdict.h"
#include "trace/trace_line.h"

namespace snare::platform {

// Nested traps one guest thread can have (a guest signal handler trapping inside a trap).
inline constexpr uint32_t kMaxTrapDepth = 8;

// A trapped syscall, copied out of the platform's memory (values are the guest's: untrusted).
struct SyscallRequest {
  int32_t tid = 0;
  uint32_t depth = 0;  // nesting level, below kMaxTrapDepth
  uint64_t seq = 0;    // with --trace only
  uint64_t nr = 0;
  uint64_t args[6] = {};
  char strings[2][trace::kPathPrefixBytes] = {};  // path-argument prefixes (only with --trace)
};

// What Context::Switch() returns.
enum class StopReason {
  kSyscall,  // the guest thread trapped; `syscall` is the request
  kGone,     // the guest thread no longer exists (exited or killed); the Task ends
};

struct Event {
  StopReason reason = StopReason::kGone;
  SyscallRequest syscall;
};

// One guest thread as the sentry sees it.
class Context {
 public:
  virtual ~Context() = default;
  // Answers the request the previous Switch() returned (reply is null on the first call),
  // then suspends the calling Task until the guest thread traps again or is gone. A reply
  // is kPassthrough, kReturn or kKill; its copy-out bytes are copied before Switch returns.
  virtual Event Switch(const policy::Verdict* reply) = 0;
  // Whether the last passthrough at `depth` with sequence `seq` has finished, and its result
  // (the stub reports it after executing the call; for --trace).
  virtual bool Completed(uint32_t depth, uint64_t seq, int64_t* result) const = 0;
};

// A guest thread with a pending trap: which one, and which of its lives (a thread id is
// reused once its thread is gone).
struct TrapSource {
  uint32_t thread = 0;
  uint64_t generation = 0;
};

// How the launcher starts the guest's first program under a Machine, in the guest process
// after the sandbox is set up: dup each `fds` source onto its target, open the program as
// PROGRAM_FD, then execveat(exec_fd, "", argv, envp, AT_EMPTY_PATH) with
//   argv = argv_prefix..., PROGRAM_FD (decimal), PROGRAM_PATH, GUEST_ARGV...
struct GuestEntry {
  int exec_fd = -1;
  std::vector<std::pair<int, int>> fds;  // (fd now, fd in the guest)
  std::vector<std::string> argv_prefix;
};

// Per-syscall counters over every guest thread, summed.
struct SyscallCounters {
  uint64_t calls = 0;
  uint64_t errors = 0;
  uint64_t overhead_ticks = 0;  // TSC ticks in the trap path, excluding the syscall itself
  uint64_t syscall_ticks = 0;   // TSC ticks executing the passthrough syscall
  uint64_t patched = 0;         // of calls, those from a patched site (no signal)
  uint64_t in_stub = 0;         // of patched, those the stub ran without the sentry
  uint64_t limited = 0;         // failed as a resource limit fails them (TrapCounters)
};

// The guest threads of one sandbox.
class Machine {
 public:
  virtual ~Machine() = default;

  virtual const GuestEntry& Entry() const = 0;
  // Guest threads this machine can hold at once (thread ids are below it).
  virtual uint32_t MaxThreads() const = 0;
  // False when traps are decided inside the guest (inproc): the sentry only supervises.
  virtual bool AnswersTraps() const = 0;
  // `table` with the guards that keep the guest away from this machine's fds and memory.
  virtual policy::PolicyContext Guarded(const policy::PolicyTable* table) const = 0;

  // Appends the guest threads that trapped since the last call; true when there were any.
  virtual bool CollectTraps(std::vector<TrapSource>* ready) = 0;
  // Called when nothing was pending: spins a little or, once the spin budget is spent,
  // sleeps until a trap, Wake() or a periodic check. Appends the threads found gone; the
  // caller drops their Tasks, then calls Release() with them.
  virtual void Idle(std::vector<uint32_t>* gone) = 0;
  virtual void Release(const std::vector<uint32_t>& gone) = 0;
  // Ends an Idle() sleep. Thread-safe.
  virtual void Wake() = 0;

  // The Context of a thread CollectTraps reported; `yield` suspends the calling Task until
  // the dispatcher resumes it, and returns false when the Task is to end (Switch() then
  // returns kGone, so that the Task's fiber returns instead of being unwound).
  virtual std::unique_ptr<Context> NewContext(const TrapSource& source,
                                              std::function<bool()> yield) = 0;

  // Without a pid namespace the guest can outlive a killed sentry: guests then check that
  // `sentry` lives when a reply is late.
  virtual void WatchSentry(pid_t sentry) = 0;
  // The /proc of the guest's own pid namespace, where the thread ids the guest reports are
  // looked up (without it, in the sentry's). Takes ownership of the fd.
  virtual void SetGuestProc(int proc_dirfd) = 0;

  // abi::kSyscallLimit entries, indexed by syscall number.
  virtual std::vector<SyscallCounters> Counters() const = 0;

  // The listener of the guest's seccomp user notifications (the calls the policy gives
  // Action::kNotify), once the first guest process has installed its filter and handed it
  // over; waits at most timeout_ms. -1 when the policy notifies nothing or it never came.
  // The caller owns the fd.
  virtual int TakeNotifyListener(int timeout_ms) { return -1; }

  // Calls the sentry passes through whatever their arguments and unseen (no trace):
  // a machine may answer them as it finds them, without a Task, and counts each in
  // PassedUnseen(). Indexed by number; empty: none.
  virtual void SetPassUnseen(std::vector<bool> nrs) {}
  // How many calls of each number it answered so (empty: none).
  virtual std::vector<uint64_t> PassedUnseen() const { return {}; }

  // How the sentry waited for traps: how often it went to sleep, its spin window now (0: it
  // does not spin beyond the fixed count), and how often it moved off the CPU of the guest
  // thread it had just answered.
  struct IdleReport {
    uint64_t sleeps = 0;
    uint64_t spin_window_ns = 0;
    uint64_t cpu_moves = 0;
    uint64_t crowded_reads = 0;     // reads of the CPUs' load that found them crowded
    uint64_t first_request_ns = 0;  // CLOCK_MONOTONIC when the first request came (0: none)
  };
  virtual IdleReport Idling() const { return {}; }
};

struct MachineConfig {
  const policy::PolicyTable* policy = nullptr;  // the run's, which outlives the machine
  uint32_t spin_iterations = 2000;              // how long each side spins before sleeping
  bool trace = false;              // keep path prefixes (and, inproc, write trace lines)
  int trace_fd = -1;               // inproc: where the guest writes trace lines
  bool patch = false;              // systrap: patch syscall sites (site_patcher.h)
  uint32_t patch_after = 16;       // at a site's this-th trap
  bool patch_after_given = false;  // the user's: crowded CPUs do not lower it
  bool all_to_sentry = false;      // patched calls ask the sentry too (none run in the stub)
  bool timing = false;             // the stub times its traps (for --stats); it always counts
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual std::string_view Name() const = 0;
  virtual std::expected<std::unique_ptr<Machine>, std::string> NewMachine(
      const MachineConfig& config) const = 0;
};

}  // namespace snare::platform

#endif  // SNARE_PLATFORM_PLATFORM_H_
