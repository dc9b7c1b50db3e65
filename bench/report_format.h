// The formatting shared by the renderings of bench/report.h: numbers and ratios as people
// read them, Markdown tables, and the row lookups that every suite's section and plot use.
#ifndef SNARE_BENCH_REPORT_FORMAT_H_
#define SNARE_BENCH_REPORT_FORMAT_H_

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "results/bench_result.h"

namespace snare::bench {

// What a value that cannot be computed is (a missing row, a zero denominator).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------
// Numbers

// Groups the digits of an integer string in threes: "68900" -> "68,900", "-1234" -> "-1,234".
std::string GroupThousands(const std::string& digits);

// A measured value: billions as "1.23 G", millions as "1.06 M", from 100 rounded with its
// thousands grouped ("68,900"), then "42.0", "2.50", and below 0.01 three significant
// digits ("0.00123", "1e-05"); "nan", "inf" and "-inf" as such.
std::string FormatNumber(double v);

// A ratio: grouped from 100 ("1,234"), "15.8" from 10, else "0.06"; blank when it cannot be
// computed (not finite: a missing or zero denominator).
std::string FormatRatio(double r);

// numerator / denominator; NaN when either is not finite or the denominator is zero.
double Ratio(double numerator, double denominator);

// a's value over b's, taken round by round: the median of a.samples[i] / b.samples[i] where
// both rows hold a sample from each round (the rounds interleave, so a machine that drifts
// between rounds moves both alike); Ratio(a.value, b.value) where they do not.
double PairedRatio(const results::BenchRow& a, const results::BenchRow& b);

// A number parsed from a param value (all of it, as strtod reads it); NaN when it is not one.
double ParseNumber(const std::string& text);

// ---------------------------------------------------------------------------------------
// Rows

// The value of param `key` of `row`; "" when it has none.
std::string Param(const results::BenchRow& row, const std::string& key);

// "key=value, key=value", in key order.
std::string FormatParams(const std::map<std::string, std::string>& params);

// The rows of `suite`, in the run's order.
std::vector<const results::BenchRow*> RowsOf(const results::BenchRun& run,
                                             const std::string& suite);

// The suites reports show, in order: ladder, depth, contention, workload, peer, then any
// other suite of `runs` in order of appearance. Suites a run lacks are listed too.
std::vector<std::string> SuitesInOrder(const std::vector<const results::BenchRun*>& runs);

// Rows grouped by platform, platforms in order of appearance.
std::vector<std::pair<std::string, std::vector<const results::BenchRow*>>> ByPlatform(
    const std::vector<const results::BenchRow*>& rows);

// Sorted by a numeric param (rows without one last, in their original order).
std::vector<const results::BenchRow*> SortedBy(std::vector<const results::BenchRow*> rows,
                                               const std::string& key);

// Appends `value` to `order` unless it is there already.
void AddOnce(std::vector<std::string>& order, const std::string& value);

// ---------------------------------------------------------------------------------------
// Markdown

// Text safe inside a Markdown table cell: '|' escaped, line breaks as spaces.
std::string Cell(const std::string& text);

// A Markdown table. `align` has one letter per column: 'l' for text, 'r' for numbers;
// columns past its end are right-aligned. Cells are escaped with Cell; an empty one is "| |".
std::string MarkdownTable(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::string& align);

// The unit all rows share, or "" when they differ (then each cell shows its unit).
std::string CommonUnit(const std::vector<const results::BenchRow*>& rows);

// The row's value for a table cell, followed by its unit when `with_unit`; "" for no row.
std::string ValueCell(const results::BenchRow* row, bool with_unit);

// "Values in UNIT.\n\n" above a table whose rows share a unit; "" when they do not.
std::string UnitNote(const std::string& common_unit);

// The run's kernel, with its variant in parentheses when it has one: "6.12.0 (reserve)".
std::string KernelText(const results::BenchRun& run);

// `text` as inline code, or as it is when it holds a backquote.
std::string Code(const std::string& text);

}  // namespace snare::bench

#endif  // SNARE_BENCH_REPORT_FORMAT_H_
