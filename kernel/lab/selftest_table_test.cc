#include "kernel/lab/selftest_table.h"

#include <gtest/gtest.h>

#include "kernel/lab/selftest_builder.h"

namespace snare::lab {
namespace {

SelftestOutcome Outcome(const std::string& name, int exit_status, int ok, int not_ok) {
  SelftestOutcome o;
  o.name = name;
  o.exit_status = exit_status;
  o.ok = ok;
  o.not_ok = not_ok;
  if (not_ok) o.failed = {"not ok 2 global.tsync"};
  return o;
}

results::BenchRun VariantRun(const std::string& variant,
                             const std::vector<SelftestOutcome>& tests) {
  results::BenchRun run;
  run.kernel_variant = variant;
  for (const auto& t : tests) run.rows.push_back(SelftestRow(t));
  return run;
}

TEST(SelftestTableTest, OneRowPerTestOneColumnPerVariant) {
  auto table = MakeSelftestTable({VariantRun("stock", {Outcome("seccomp/seccomp_bpf", 0, 95, 0),
                                                       Outcome("x86/fsgsbase_64", 1, 86, 1)}),
                                  VariantRun("reserve", {Outcome("seccomp/seccomp_bpf", 0, 95, 0),
                                                         Outcome("x86/fsgsbase_64", 1, 86, 1)})});
  EXPECT_NE(table.text.find("| selftest | stock | reserve |"), std::string::npos) << table.text;
  EXPECT_NE(table.text.find("| seccomp/seccomp_bpf | pass (ok 95) | pass (ok 95) |"),
            std::string::npos)
      << table.text;
  EXPECT_NE(table.text.find("fail (ok 86, not ok 1, exit 1)"), std::string::npos) << table.text;
  EXPECT_NE(table.text.find("stock: 1 pass, 0 skip, 1 fail; reserve: 1 pass, 0 skip, 1 fail"),
            std::string::npos)
      << table.text;
  // Failing on both is the environment's (or the source's), not the patch's.
  EXPECT_TRUE(table.regressions.empty()) << table.regressions;
}

TEST(SelftestTableTest, PassingOnStockAndFailingOnAVariantIsARegression) {
  auto table =
      MakeSelftestTable({VariantRun("stock", {Outcome("seccomp/seccomp_bpf", 0, 95, 0)}),
                         VariantRun("percpu", {Outcome("seccomp/seccomp_bpf", 0, 95, 0)}),
                         VariantRun("reserve", {Outcome("seccomp/seccomp_bpf", 1, 94, 1)})});
  EXPECT_NE(table.regressions.find(
                "selftest seccomp/seccomp_bpf passes on stock but fails on reserve: not ok 2"),
            std::string::npos)
      << table.regressions;
  EXPECT_EQ(table.regressions.find("percpu"), std::string::npos) << table.regressions;
}

TEST(SelftestTableTest, TimingSelftestsAreShownButNeverRegressions) {
  ASSERT_TRUE(IsTimingSelftest("seccomp/seccomp_benchmark"));
  auto table =
      MakeSelftestTable({VariantRun("stock", {Outcome("seccomp/seccomp_benchmark", 0, 4, 0)}),
                         VariantRun("reserve", {Outcome("seccomp/seccomp_benchmark", 1, 2, 2)})});
  EXPECT_TRUE(table.regressions.empty()) << table.regressions;
  EXPECT_NE(table.text.find("seccomp/seccomp_benchmark (timing)"), std::string::npos) << table.text;
}

TEST(SelftestTableTest, ATimeOutAndASkipSayWhat) {
  SelftestOutcome hung = Outcome("timers/posix_timers", -1, 3, 0);
  hung.timed_out = true;
  auto table =
      MakeSelftestTable({VariantRun("stock", {hung, Outcome("sigaltstack/sas", 4, 0, 0)})});
  EXPECT_NE(table.text.find("fail (ok 3, timed out)"), std::string::npos) << table.text;
  EXPECT_NE(table.text.find("skip (ok 0, exit 4)"), std::string::npos) << table.text;
  EXPECT_TRUE(MakeSelftestTable({results::BenchRun{}}).text.empty());
}

}  // namespace
}  // namespace snare::lab
