// Runs a piece of the lab in a forked child, so its seccomp filter, rlimits, signal
// handlers and user namespaces never stick to the caller (which may be /init).
#ifndef SNARE_KERNEL_GUEST_CHILD_RUNNER_H_
#define SNARE_KERNEL_GUEST_CHILD_RUNNER_H_

#include <functional>
#include <string>

namespace snare::lab {

struct CheckResult {
  bool pass = false;
  std::string detail;
};

// Forks; the child arms alarm(timeout_s), runs body and sends its result back over a
// pipe, then _exit(0)s. A child that dies, times out or reports nothing is a failure
// whose detail says why.
CheckResult RunInChild(const std::function<CheckResult()>& body, unsigned timeout_s);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_CHILD_RUNNER_H_
