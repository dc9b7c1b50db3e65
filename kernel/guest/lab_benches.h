// The lab's benchmarks. Each runs in forked children, writes its SNARE-LAB-RESULT lines
// as it measures, and returns a summary the caller reports as a "bench-*" check (failed
// when the suite could not run as asked, e.g. an unshare was refused or a call that
// should have trapped did not).
//   depth      signal-floor ns/trap per user namespace depth 0..maxdepth
//   ladder     getppid ns/call natively and through the SIGSYS trap
//   contention traps/s per process, 1..cpus pinned processes, same-ns and sibling-ns
#ifndef SNARE_KERNEL_GUEST_LAB_BENCHES_H_
#define SNARE_KERNEL_GUEST_LAB_BENCHES_H_

#include "kernel/guest/child_runner.h"
#include "kernel/guest/lab_settings.h"

namespace snare::lab {

CheckResult RunDepthSweep(const Settings& settings);
CheckResult RunLadder(const Settings& settings);
CheckResult RunContention(const Settings& settings);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_LAB_BENCHES_H_
