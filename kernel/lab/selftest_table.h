// The kernel selftests' part of a lab run: one stored row per selftest and boot, and the
// test x variant table with what differs from stock.
#ifndef SNARE_KERNEL_LAB_SELFTEST_TABLE_H_
#define SNARE_KERNEL_LAB_SELFTEST_TABLE_H_

#include <string>
#include <vector>

#include "kernel/lab/guest_boot.h"
#include "results/bench_result.h"

namespace snare::lab {

// suite "selftest": value 1 pass, 0 skip, -1 fail; the counts and failing lines in params.
results::BenchRow SelftestRow(const SelftestOutcome& outcome);

struct SelftestTable {
  std::string text;  // markdown, empty when no run holds a selftest
  // A line for each selftest that passes on stock and fails on another variant: a bug in
  // that variant's patches, or an expectation the patch changes. Timing selftests
  // (IsTimingSelftest) are shown but never counted.
  std::string regressions;
};

SelftestTable MakeSelftestTable(const std::vector<results::BenchRun>& runs);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_SELFTEST_TABLE_H_
