#include "bench/report_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;

// The order suites appear in reports; other suites follow in order of appearance.
constexpr const char* kSuiteOrder[] = {"ladder", "depth", "contention", "workload", "peer"};

}  // namespace

std::string GroupThousands(const std::string& digits) {
  const size_t start = !digits.empty() && digits[0] == '-' ? 1 : 0;
  std::string out = digits.substr(0, start);
  for (size_t i = start; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string FormatNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:.2f} G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.2f} M", v / 1e6);
  if (a >= 100) return GroupThousands(fmt::format("{:.0f}", v));
  if (a >= 10) return fmt::format("{:.1f}", v);
  if (a >= 0.01 || a == 0) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

std::string FormatRatio(double r) {
  if (!std::isfinite(r)) return "";
  const double a = std::fabs(r);
  if (a >= 100) return GroupThousands(fmt::format("{:.0f}", r));
  if (a >= 10) return fmt::format("{:.1f}", r);
  return fmt::format("{:.2f}", r);
}

double Ratio(double numerator, double denominator) {
  if (!std::isfinite(numerator) || !std::isfinite(denominator) || denominator == 0) return kNaN;
  return numerator / denominator;
}

double PairedRatio(const results::BenchRow& a, const results::BenchRow& b) {
  if (a.samples.empty() || a.samples.size() != b.samples.size()) return Ratio(a.value, b.value);
  std::vector<double> ratios;
  for (size_t i = 0; i < a.samples.size(); ++i) {
    const double r = Ratio(a.samples[i], b.samples[i]);
    if (std::isfinite(r)) ratios.push_back(r);
  }
  return ratios.empty() ? kNaN : results::Median(ratios);
}

double ParseNumber(const std::string& text) {
  if (text.empty()) return kNaN;
  char* end = nullptr;
  double v = strtod(text.c_str(), &end);
  return *end == '\0' ? v : kNaN;
}

std::string Param(const BenchRow& row, const std::string& key) {
  auto it = row.params.find(key);
  return it == row.params.end() ? "" : it->second;
}

std::string FormatParams(const std::map<std::string, std::string>& params) {
  std::string out;
  for (const auto& [key, value] : params) {
    if (!out.empty()) out += ", ";
    out += key + "=" + value;
  }
  return out;
}

std::vector<const BenchRow*> RowsOf(const BenchRun& run, const std::string& suite) {
  std::vector<const BenchRow*> rows;
  for (const auto& row : run.rows) {
    if (row.suite == suite) rows.push_back(&row);
  }
  return rows;
}

std::vector<std::string> SuitesInOrder(const std::vector<const BenchRun*>& runs) {
  std::vector<std::string> suites(std::begin(kSuiteOrder), std::end(kSuiteOrder));
  for (const BenchRun* run : runs) {
    for (const auto& row : run->rows) AddOnce(suites, row.suite);
  }
  return suites;
}

std::vector<std::pair<std::string, std::vector<const BenchRow*>>> ByPlatform(
    const std::vector<const BenchRow*>& rows) {
  std::vector<std::pair<std::string, std::vector<const BenchRow*>>> groups;
  for (const BenchRow* row : rows) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == row->platform; });
    if (it == groups.end()) {
      groups.push_back({row->platform, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(row);
  }
  return groups;
}

std::vector<const BenchRow*> SortedBy(std::vector<const BenchRow*> rows, const std::string& key) {
  std::stable_sort(rows.begin(), rows.end(), [&](const BenchRow* a, const BenchRow* b) {
    double x = ParseNumber(Param(*a, key)), y = ParseNumber(Param(*b, key));
    if (std::isnan(y)) return !std::isnan(x);
    return !std::isnan(x) && x < y;
  });
  return rows;
}

void AddOnce(std::vector<std::string>& order, const std::string& value) {
  if (std::find(order.begin(), order.end(), value) == order.end()) order.push_back(value);
}

std::string Cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownTable(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::string& align) {
  std::string out = "|";
  for (const auto& h : header) out += " " + Cell(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < header.size(); ++i) {
    out += i < align.size() && align[i] == 'l' ? " --- |" : " ---: |";
  }
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (size_t i = 0; i < header.size(); ++i) {
      const std::string cell = i < row.size() ? Cell(row[i]) : "";
      out += cell.empty() ? " |" : " " + cell + " |";
    }
    out += "\n";
  }
  return out;
}

std::string CommonUnit(const std::vector<const BenchRow*>& rows) {
  if (rows.empty()) return "";
  for (const BenchRow* row : rows) {
    if (row->unit != rows.front()->unit) return "";
  }
  return rows.front()->unit;
}

std::string ValueCell(const BenchRow* row, bool with_unit) {
  if (!row) return "";
  std::string cell = FormatNumber(row->value);
  if (with_unit && !row->unit.empty()) cell += " " + row->unit;
  return cell;
}

std::string UnitNote(const std::string& common_unit) {
  return common_unit.empty() ? "" : "Values in " + common_unit + ".\n\n";
}

std::string KernelText(const BenchRun& run) {
  return run.kernel + (run.kernel_variant.empty() ? "" : " (" + run.kernel_variant + ")");
}

std::string Code(const std::string& text) {
  return text.find('`') == std::string::npos ? "`" + text + "`" : text;
}

}  // namespace snare::bench
