#include "sentry/limit_report.h"

#include <sys/resource.h>
#include <sys/syscall.h>

#include <cstdint>
#include <string>

namespace snare::sentry {
namespace {

uint64_t Limited(const std::vector<platform::SyscallCounters>& counters,
                 std::initializer_list<long> numbers) {
  uint64_t n = 0;
  for (long nr : numbers) {
    if (nr >= 0 && static_cast<size_t>(nr) < counters.size()) n += counters[nr].limited;
  }
  return n;
}

// " (nproc=1000)" as --rlimit spells it, or "" when the run set no such limit.
std::string LimitOf(const std::vector<sandbox::RlimitSpec>& rlimits, int resource,
                    const char* name) {
  for (const sandbox::RlimitSpec& r : rlimits) {
    if (r.resource != resource) continue;
    if (r.soft == RLIM_INFINITY) return std::string(" (") + name + "=unlimited)";
    if (resource == RLIMIT_AS)
      return " (" + std::string(name) + "=" + std::to_string(r.soft >> 20) + "M)";
    return " (" + std::string(name) + "=" + std::to_string(r.soft) + ")";
  }
  return "";
}

}  // namespace

std::string LimitReport(const std::vector<platform::SyscallCounters>& counters,
                        const std::vector<sandbox::RlimitSpec>& rlimits,
                        const CgroupBounds& cgroup) {
  const uint64_t forks = Limited(counters, {SYS_clone, SYS_clone3, SYS_fork, SYS_vfork});
  const uint64_t memory = Limited(counters, {SYS_mmap, SYS_brk, SYS_mremap});
  uint64_t all = 0;
  for (const platform::SyscallCounters& c : counters) all += c.limited;
  const uint64_t files = all - forks - memory;  // EMFILE, from whichever call made an fd
  std::string parts;
  auto add = [&](uint64_t n, const std::string& what) {
    if (!n) return;
    parts += (parts.empty() ? "" : "; ") + std::to_string(n) + " " + what;
  };
  // A fork the pids cgroup refused is EAGAIN too: the cgroup's own count says which.
  add(forks, "forks or threads refused (EAGAIN)" +
                 (cgroup.events.pids_refused ? " (--pids=" + std::to_string(cgroup.pids) + ")"
                                             : LimitOf(rlimits, RLIMIT_NPROC, "nproc")));
  add(files, "new fds refused (EMFILE)" + LimitOf(rlimits, RLIMIT_NOFILE, "nofile"));
  add(memory, "memory requests refused (ENOMEM)" + LimitOf(rlimits, RLIMIT_AS, "as"));
  add(cgroup.events.oom_kills, "processes killed at the memory bound (--memory=" +
                                   std::to_string(cgroup.memory_bytes >> 20) + "M)");
  if (parts.empty()) return "";
  // The sandbox's own limits can be raised; without them the limits are the host's.
  const std::string raise =
      cgroup.memory_bytes || cgroup.pids
          ? "; --memory, --pids and --rlimit=NAME=N raise one (an rlimit up to snare's own)\n"
      : rlimits.empty() ? "\n"
                        : "; --rlimit=NAME=N raises one (up to snare's own)\n";
  return "snare: the guest ran into its limits: " + parts + raise;
}

}  // namespace snare::sentry
