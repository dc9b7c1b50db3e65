// Runs the kernel's selftests that the initramfs holds under /selftests (listed, with their
// kselftest timeouts, in /selftests/timeouts) one at a time, and reports each as
//   SNARE-LAB-SELFTEST {"name":...,"exit":N,"signal":N,"timed_out":bool,"ok":N,
//                       "not_ok":N,"skip":N,"seconds":S,"failed":["line",...]}
// ok/not_ok/skip count TAP result lines ("ok 3 ...", "not ok 4 ...", "... # SKIP"), or,
// for the x86 tests that print no TAP, their [OK]/[FAIL]/[SKIP] lines. The verdict is
// kselftest's, from the exit status; the host decides it.
#ifndef SNARE_KERNEL_GUEST_SELFTEST_RUNNER_H_
#define SNARE_KERNEL_GUEST_SELFTEST_RUNNER_H_

#include <string>
#include <string_view>
#include <vector>

#include "kernel/guest/child_runner.h"

namespace snare::lab {

struct SelftestCounts {
  int ok = 0, not_ok = 0, skip = 0;
  std::vector<std::string> failed;  // the first failing lines
};

// Counts one line of a selftest's output into counts.
void CountSelftestLine(std::string_view line, SelftestCounts* counts);

// Runs every listed selftest, scaling each timeout by timeout_factor (emulated machines run
// slower than the ones kselftest's timeouts were set for). Fails when the list is missing.
CheckResult RunSelftests(const std::string& dir, int timeout_factor);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_SELFTEST_RUNNER_H_
