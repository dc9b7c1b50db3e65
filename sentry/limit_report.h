// snare's word on the resource limits a guest ran into: forks and clones refused with
// EAGAIN (RLIMIT_NPROC, or the stub's thread slots), files refused with EMFILE
// (RLIMIT_NOFILE), memory refused with ENOMEM (RLIMIT_AS), from the stub's counters. The
// guest's own messages (a shell's "fork: Resource temporarily unavailable") do not say that
// the limit is the sandbox's, nor how to raise it.
#ifndef SNARE_SENTRY_LIMIT_REPORT_H_
#define SNARE_SENTRY_LIMIT_REPORT_H_

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sandbox/guest_cgroup.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sentry {

// One line (ending in a newline), or "" when no call failed that way. The counters are the
// guest's to write: a forged count misleads only about the guest itself.
// The guest's cgroup: the bounds it held (0: none) and what it counted at them.
struct CgroupBounds {
  uint64_t memory_bytes = 0;
  uint64_t pids = 0;
  sandbox::CgroupEvents events;
};

std::string LimitReport(const std::vector<platform::SyscallCounters>& counters,
                        const std::vector<sandbox::RlimitSpec>& rlimits,
                        const CgroupBounds& cgroup = {});

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_LIMIT_REPORT_H_
