// The lab's correctness checks: seccomp SIGSYS delivery, nested traps, a fault-type
// forced signal inside the SIGSYS handler (and a trap inside the SIGSEGV handler),
// RLIMIT_SIGPENDING for ordinary queued signals, and no leaked sigqueue charge. Each
// holds on both the stock and the reserve kernel; each runs in forked children.
#ifndef SNARE_KERNEL_GUEST_LAB_CHECKS_H_
#define SNARE_KERNEL_GUEST_LAB_CHECKS_H_

#include <string>
#include <vector>

#include "kernel/guest/child_runner.h"
#include "kernel/guest/lab_settings.h"

namespace snare::lab {

// How long any one child of the lab may run before SIGALRM ends it.
inline constexpr unsigned kChildTimeoutS = 3600;

struct LabCheck {
  std::string name;
  CheckResult (*run)(const Settings& settings);
};

// The checks in the order they run.
std::vector<LabCheck> AllChecks();

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_LAB_CHECKS_H_
