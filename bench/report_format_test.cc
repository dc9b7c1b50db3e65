#include "bench/report_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(GroupThousandsTest, GroupsDigitsInThreesAfterAnySign) {
  EXPECT_EQ(GroupThousands(""), "");
  EXPECT_EQ(GroupThousands("0"), "0");
  EXPECT_EQ(GroupThousands("999"), "999");
  EXPECT_EQ(GroupThousands("1000"), "1,000");
  EXPECT_EQ(GroupThousands("68900"), "68,900");
  EXPECT_EQ(GroupThousands("123456"), "123,456");
  EXPECT_EQ(GroupThousands("1234567"), "1,234,567");
  EXPECT_EQ(GroupThousands("-"), "-");
  EXPECT_EQ(GroupThousands("-100"), "-100");
  EXPECT_EQ(GroupThousands("-1000"), "-1,000");
  EXPECT_EQ(GroupThousands("-123456"), "-123,456");
}

TEST(FormatNumberTest, ScalesByMagnitude) {
  EXPECT_EQ(FormatNumber(1.234e9), "1.23 G");
  EXPECT_EQ(FormatNumber(-1e12), "-1000.00 G");
  EXPECT_EQ(FormatNumber(1.06e6), "1.06 M");
  EXPECT_EQ(FormatNumber(999999999), "1000.00 M");  // below 1e9: still in millions
  EXPECT_EQ(FormatNumber(999999.4), "999,999");
  EXPECT_EQ(FormatNumber(999999.6), "1,000,000");  // rounds up to seven digits, not "1.00 M"
  EXPECT_EQ(FormatNumber(68900), "68,900");
  EXPECT_EQ(FormatNumber(-68900), "-68,900");
  EXPECT_EQ(FormatNumber(100), "100");
  EXPECT_EQ(FormatNumber(99.96), "100.0");
  EXPECT_EQ(FormatNumber(42), "42.0");
  EXPECT_EQ(FormatNumber(10), "10.0");
  EXPECT_EQ(FormatNumber(9.996), "10.00");
  EXPECT_EQ(FormatNumber(2.5), "2.50");
  EXPECT_EQ(FormatNumber(0.01), "0.01");
  EXPECT_EQ(FormatNumber(0), "0.00");
  EXPECT_EQ(FormatNumber(-0.0), "-0.00");
}

TEST(FormatNumberTest, SmallValuesKeepThreeSignificantDigits) {
  EXPECT_EQ(FormatNumber(0.005), "0.005");
  EXPECT_EQ(FormatNumber(0.0031), "0.0031");
  EXPECT_EQ(FormatNumber(0.000123456), "0.000123");
  EXPECT_EQ(FormatNumber(0.0099999), "0.01");
  EXPECT_EQ(FormatNumber(1e-5), "1e-05");
  EXPECT_EQ(FormatNumber(-1.5e-7), "-1.5e-07");
  EXPECT_EQ(FormatNumber(5e-324), "4.94e-324");
}

TEST(FormatNumberTest, NonFiniteValuesAreNamed) {
  EXPECT_EQ(FormatNumber(NAN), "nan");
  EXPECT_EQ(FormatNumber(-NAN), "nan");
  EXPECT_EQ(FormatNumber(kInf), "inf");
  EXPECT_EQ(FormatNumber(-kInf), "-inf");
}

TEST(PairedRatioTest, TakesTheMedianOfTheRatiosRoundByRound) {
  results::BenchRow a, b;
  // The machine slowed in the last two rounds: the medians' ratio (20 / 10) says 2, each
  // round says 1.5.
  a.samples = {15, 15, 15, 60, 60};
  b.samples = {10, 10, 10, 40, 40};
  a.value = 15;
  b.value = 10;
  EXPECT_DOUBLE_EQ(PairedRatio(a, b), 1.5);
  a.value = 20;
  EXPECT_DOUBLE_EQ(PairedRatio(a, b), 1.5);
  // Rounds that do not pair up: the values' ratio.
  b.samples.pop_back();
  EXPECT_DOUBLE_EQ(PairedRatio(a, b), 2.0);
  a.samples.clear();
  b.samples.clear();
  EXPECT_DOUBLE_EQ(PairedRatio(a, b), 2.0);
}

TEST(FormatRatioTest, ScalesByMagnitudeAndBlanksWhatCannotBeComputed) {
  EXPECT_EQ(FormatRatio(136986.3), "136,986");
  EXPECT_EQ(FormatRatio(-322.6), "-323");
  EXPECT_EQ(FormatRatio(100), "100");
  EXPECT_EQ(FormatRatio(99.96), "100.0");
  EXPECT_EQ(FormatRatio(15.83), "15.8");
  EXPECT_EQ(FormatRatio(1), "1.00");
  EXPECT_EQ(FormatRatio(0.0631), "0.06");
  EXPECT_EQ(FormatRatio(-0.001), "-0.00");
  EXPECT_EQ(FormatRatio(NAN), "");
  EXPECT_EQ(FormatRatio(kInf), "");
  EXPECT_EQ(FormatRatio(-kInf), "");
}

TEST(RatioTest, IsNanWithoutAFiniteNonZeroDenominator) {
  EXPECT_DOUBLE_EQ(Ratio(5700, 60), 95);
  EXPECT_DOUBLE_EQ(Ratio(-3, 2), -1.5);
  EXPECT_TRUE(std::isnan(Ratio(1, 0)));
  EXPECT_TRUE(std::isnan(Ratio(1, -0.0)));
  EXPECT_TRUE(std::isnan(Ratio(1, NAN)));
  EXPECT_TRUE(std::isnan(Ratio(NAN, 1)));
  EXPECT_TRUE(std::isnan(Ratio(kInf, 1)));
  EXPECT_TRUE(std::isnan(Ratio(1, kInf)));
}

TEST(ParseNumberTest, AcceptsOnlyAWholeNumber) {
  EXPECT_DOUBLE_EQ(ParseNumber("8"), 8);
  EXPECT_DOUBLE_EQ(ParseNumber("-2.5"), -2.5);
  EXPECT_DOUBLE_EQ(ParseNumber("1e3"), 1000);
  EXPECT_TRUE(std::isnan(ParseNumber("")));
  EXPECT_TRUE(std::isnan(ParseNumber("x")));
  EXPECT_TRUE(std::isnan(ParseNumber("8 ")));
  EXPECT_TRUE(std::isnan(ParseNumber("8x")));
}

TEST(MarkdownTableTest, AlignsEscapesAndLeavesEmptyCellsBlank) {
  EXPECT_EQ(MarkdownTable({"name", "a|b", "n"}, {{"x\ny", "", "1"}, {"only"}}, "l"),
            "| name | a\\|b | n |\n"
            "| --- | ---: | ---: |\n"
            "| x y | | 1 |\n"
            "| only | | |\n");
  EXPECT_EQ(Cell("a|b\r\nc"), "a\\|b  c");
}

TEST(RowsTest, ParamsUnitsAndValueCells) {
  BenchRow a{"depth", "d", "native", {{"depth", "8"}, {"caller_depth", "8"}}, 1082, "ns/trap", {}};
  BenchRow b{"depth", "d", "systrap", {{"depth", "x"}}, 0.5, "", {}};
  EXPECT_EQ(Param(a, "depth"), "8");
  EXPECT_EQ(Param(a, "tasks"), "");
  EXPECT_EQ(FormatParams(a.params), "caller_depth=8, depth=8");
  EXPECT_EQ(FormatParams({}), "");
  EXPECT_EQ(CommonUnit({&a}), "ns/trap");
  EXPECT_EQ(CommonUnit({&a, &b}), "");
  EXPECT_EQ(CommonUnit({}), "");
  EXPECT_EQ(UnitNote("ns/trap"), "Values in ns/trap.\n\n");
  EXPECT_EQ(UnitNote(""), "");
  EXPECT_EQ(ValueCell(&a, true), "1,082 ns/trap");
  EXPECT_EQ(ValueCell(&a, false), "1,082");
  EXPECT_EQ(ValueCell(&b, true), "0.50");
  EXPECT_EQ(ValueCell(nullptr, true), "");
}

TEST(RowsTest, GroupsAndSorts) {
  BenchRun run;
  run.rows = {{"depth", "a", "native", {{"depth", "16"}}, 1, "", {}},
              {"depth", "b", "systrap", {{"depth", "2"}}, 2, "", {}},
              {"custom", "c", "native", {}, 3, "", {}},
              {"depth", "d", "native", {{"depth", "x"}}, 4, "", {}},
              {"depth", "e", "native", {{"depth", "3"}}, 5, "", {}}};
  auto rows = RowsOf(run, "depth");
  ASSERT_EQ(rows.size(), 4u);
  auto names = [](const std::vector<const BenchRow*>& rows) {
    std::string out;
    for (const BenchRow* row : rows) out += row->name;
    return out;
  };
  EXPECT_EQ(names(SortedBy(rows, "depth")), "bead");  // "x" is no number: last
  auto groups = ByPlatform(rows);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].first, "native");
  EXPECT_EQ(names(groups[0].second), "ade");
  EXPECT_EQ(groups[1].first, "systrap");
  EXPECT_EQ(names(groups[1].second), "b");

  BenchRun other;
  other.rows = {{"zz", "z", "native", {}, 1, "", {}}, {"peer", "p", "native", {}, 1, "", {}}};
  EXPECT_EQ(SuitesInOrder({&run, &other}),
            (std::vector<std::string>{"ladder", "depth", "contention", "workload", "peer", "custom",
                                      "zz"}));

  std::vector<std::string> order = {"a"};
  AddOnce(order, "b");
  AddOnce(order, "a");
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b"}));
}

TEST(RunTextTest, KernelAndCode) {
  BenchRun run;
  run.kernel = "6.12.0";
  run.kernel_variant = "reserve";
  EXPECT_EQ(KernelText(run), "6.12.0 (reserve)");
  run.kernel_variant = "";
  EXPECT_EQ(KernelText(run), "6.12.0");
  EXPECT_EQ(Code("snare bench"), "`snare bench`");
  EXPECT_EQ(Code("snare `x`"), "snare `x`");
}

}  // namespace
}  // namespace snare::bench
