#include "bench/lab_saving.h"

#include <gtest/gtest.h>

namespace snare::bench {
namespace {

results::BenchRun LabRun(int64_t id, const char* variant, double at0, double per_level) {
  results::BenchRun run;
  run.id = id;
  run.kernel_variant = variant;
  for (int d : {0, 4, 8, 16, 32}) {
    results::BenchRow row;
    row.suite = "depth";
    row.params["depth"] = std::to_string(d);
    row.value = at0 + per_level * d;
    run.rows.push_back(row);
  }
  return run;
}

TEST(LabSavingRowTest, RatioOfTheTwoLinesAtTheDepth) {
  // The README's figures: stock 3,452 + 83.05/level, reserve flat at 3,130.
  auto row = LabSavingRow(LabRun(7, "stock", 3452, 83.05), LabRun(8, "reserve", 3130, 0), 1);
  ASSERT_TRUE(row.has_value()) << row.error();
  EXPECT_EQ(row->suite, kLabSavingSuite);
  EXPECT_NEAR(row->value, 1 - 3130 / (3452 + 83.05), 1e-9);
  EXPECT_EQ(row->params.at("depth"), "1");
  EXPECT_EQ(row->params.at("stock_run"), "7");
  EXPECT_EQ(row->params.at("reserve_run"), "8");
}

TEST(LabSavingRowTest, ARunWithoutDepthPointsIsAnError) {
  results::BenchRun empty;
  empty.id = 3;
  empty.kernel_variant = "stock";
  auto row = LabSavingRow(empty, LabRun(8, "reserve", 3130, 0), 0);
  ASSERT_FALSE(row.has_value());
  EXPECT_NE(row.error().find("lab run 3"), std::string::npos) << row.error();
}

}  // namespace
}  // namespace snare::bench
