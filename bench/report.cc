#include "bench/report.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "bench/line_fit.h"
#include "bench/process_runner.h"
#include "sentry/atomic_file.h"

namespace snare::bench {
namespace {

using Json = nlohmann::json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The order suites appear in reports; other suites follow in order of appearance.
constexpr const char* kSuiteOrder[] = {"ladder", "depth", "contention", "workload", "peer"};

// ---------------------------------------------------------------------------------------
// Formatting

std::string Printf(const char* format, double v) {
  char buf[64];
  snprintf(buf, sizeof(buf), format, v);
  return buf;
}

// Groups the digits of an integer string in threes: "68900" -> "68,900".
std::string GroupThousands(const std::string& digits) {
  const size_t start = !digits.empty() && digits[0] == '-' ? 1 : 0;
  std::string out = digits.substr(0, start);
  for (size_t i = start; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A measured value: millions as "1.06 M", thousands grouped, small values with decimals.
std::string FormatNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a >= 1e9) return Printf("%.2f G", v / 1e9);
  if (a >= 1e6) return Printf("%.2f M", v / 1e6);
  if (a >= 100) return GroupThousands(Printf("%.0f", v));
  if (a >= 10) return Printf("%.1f", v);
  if (a >= 0.01 || a == 0) return Printf("%.2f", v);
  return Printf("%.3g", v);
}

// A ratio; blank when it cannot be computed (a missing or zero denominator).
std::string FormatRatio(double r) {
  if (!std::isfinite(r)) return "";
  const double a = std::fabs(r);
  if (a >= 100) return GroupThousands(Printf("%.0f", r));
  if (a >= 10) return Printf("%.1f", r);
  return Printf("%.2f", r);
}

double Ratio(double numerator, double denominator) {
  if (!std::isfinite(numerator) || !std::isfinite(denominator) || denominator == 0) return kNaN;
  return numerator / denominator;
}

// A number parsed from a param value; NaN when it is not one.
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

// Text safe inside a Markdown table cell.
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

// A Markdown table. `align` has one letter per column: 'l' for text, 'r' for numbers;
// columns past its end are right-aligned.
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

// The unit all rows share, or "" when they differ (then each cell shows its unit).
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

// Appends `value` to `order` unless it is there already.
void AddOnce(std::vector<std::string>& order, const std::string& value) {
  if (std::find(order.begin(), order.end(), value) == order.end()) order.push_back(value);
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

// Rows grouped by platform, platforms in order of appearance.
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

// Sorted by a numeric param (rows without one last, in their original order).
std::vector<const BenchRow*> SortedBy(std::vector<const BenchRow*> rows, const std::string& key) {
  std::stable_sort(rows.begin(), rows.end(), [&](const BenchRow* a, const BenchRow* b) {
    double x = ParseNumber(Param(*a, key)), y = ParseNumber(Param(*b, key));
    if (std::isnan(y)) return !std::isnan(x);
    return !std::isnan(x) && x < y;
  });
  return rows;
}

// ---------------------------------------------------------------------------------------
// Markdown sections, one per suite

std::string LadderSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> syscalls;
  for (const BenchRow* row : rows) AddOnce(syscalls, Param(*row, "syscall"));
  std::string out;
  for (const auto& syscall : syscalls) {
    double native = kNaN, floor = kNaN;
    for (const BenchRow* row : rows) {
      if (Param(*row, "syscall") != syscall) continue;
      if (row->name == "native" && std::isnan(native)) native = row->value;
      if (row->name == "signal-floor" && std::isnan(floor)) floor = row->value;
    }
    std::vector<std::vector<std::string>> table;
    for (const BenchRow* row : rows) {
      if (Param(*row, "syscall") != syscall) continue;
      table.push_back({row->name, row->platform, FormatNumber(row->value),
                       FormatRatio(Ratio(row->value, native)),
                       FormatRatio(Ratio(row->value, floor))});
    }
    out += "### " + (syscall.empty() ? std::string("(no syscall given)") : syscall) + "\n\n";
    out += MarkdownTable({"rung", "platform", "ns/call", "x native", "x signal floor"}, table,
                         "llrrr");
    out += "\n";
  }
  return out;
}

std::string Percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return Printf("%.1f%%", fraction * 100);
}

std::string DepthFitText(const std::vector<const BenchRow*>& rows) {
  std::vector<double> xs, ys;
  for (const BenchRow* row : rows) {
    double depth = ParseNumber(Param(*row, "depth"));
    if (std::isfinite(depth)) {
      xs.push_back(depth);
      ys.push_back(row->value);
    }
  }
  auto fit = FitLine(xs, ys);
  if (!fit) return "Slope: not fitted (" + fit.error() + ").\n";
  std::string out = "Slope: " + FormatNumber(fit->slope) + " ns/level";
  if (std::isnan(fit->slope_ci95)) {
    out += " (no 95% CI: it needs at least 3 depths)";
  } else {
    out += " (95% CI " + FormatNumber(fit->slope - fit->slope_ci95) + " to " +
           FormatNumber(fit->slope + fit->slope_ci95) + ", t with " +
           std::to_string(fit->points - 2) + " df over " + std::to_string(fit->points) + " depths)";
  }
  out += ", intercept " + FormatNumber(fit->intercept) + " ns at depth 0.\n\n";

  auto share = [&](double d) { return Ratio(fit->slope * d, fit->intercept + fit->slope * d); };
  out +=
      "Implied ucount share of a trap at depth d: share(d) = slope*d / (intercept + "
      "slope*d): " +
      Percent(share(1)) + " at d = 1";
  for (const BenchRow* row : rows) {
    double caller = ParseNumber(Param(*row, "caller_depth"));
    if (std::isfinite(caller)) {
      out += ", " + Percent(share(caller)) + " at d = " + Param(*row, "caller_depth") +
             " (the caller's depth)";
      break;
    }
  }
  return out + ".\n";
}

std::string DepthSection(const std::vector<const BenchRow*>& rows) {
  auto groups = ByPlatform(rows);
  std::string out;
  for (const auto& [platform, group] : groups) {
    if (groups.size() > 1) out += "### " + platform + "\n\n";
    std::vector<std::vector<std::string>> table;
    for (const BenchRow* row : SortedBy(group, "depth")) {
      table.push_back({Param(*row, "depth"), FormatNumber(row->value)});
    }
    out += MarkdownTable({"depth", "ns/trap"}, table, "rr") + "\n" + DepthFitText(group) + "\n";
  }
  return out;
}

std::string ContentionSection(const std::vector<const BenchRow*>& rows) {
  auto groups = ByPlatform(rows);
  std::string out;
  for (const auto& [platform, group] : groups) {
    if (groups.size() > 1) out += "### " + platform + "\n\n";
    std::vector<std::string> modes = {"same-ns", "sibling-ns", "distinct-uid"};
    std::vector<std::string> tasks;
    for (const BenchRow* row : SortedBy(group, "tasks")) {
      AddOnce(modes, Param(*row, "mode"));
      AddOnce(tasks, Param(*row, "tasks"));
    }
    const std::string unit = CommonUnit(group);
    // Rates of a million or so read best in one scale: "0.87 M" beside "1.06 M".
    double largest = 0;
    for (const BenchRow* row : group) largest = std::max(largest, std::fabs(row->value));
    const bool millions = !unit.empty() && largest >= 1e5;
    std::vector<std::vector<std::string>> table;
    for (const auto& t : tasks) {
      std::vector<std::string> line = {t};
      for (const auto& mode : modes) {
        const BenchRow* found = nullptr;
        for (const BenchRow* row : group) {
          if (Param(*row, "tasks") == t && Param(*row, "mode") == mode) found = row;
        }
        line.push_back(found && millions ? Printf("%.2f M", found->value / 1e6)
                                         : ValueCell(found, unit.empty()));
      }
      table.push_back(line);
    }
    std::vector<std::string> header = {"tasks"};
    header.insert(header.end(), modes.begin(), modes.end());
    out += "Traps/s per process, by number of trapping tasks and how they share ucounts" +
           (unit.empty() || unit == "traps/s" ? "" : " (in " + unit + ")") + ".\n\n";
    out += MarkdownTable(header, table, "r") + "\n";
  }
  return out;
}

std::string WorkloadSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::pair<std::string, std::string>> points;  // (workload, tasks)
  std::vector<std::string> platforms = {"native", "inproc", "systrap"};
  for (const BenchRow* row : rows) {
    std::pair<std::string, std::string> point = {row->name, Param(*row, "tasks")};
    if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(point);
    AddOnce(platforms, row->platform);
  }
  const std::string unit = CommonUnit(rows);
  std::vector<std::vector<std::string>> table;
  for (const auto& [workload, tasks] : points) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == workload && Param(*row, "tasks") == tasks) {
        by_platform.emplace(row->platform, row);
      }
    }
    std::vector<std::string> line = {workload, tasks};
    for (const auto& p : platforms) {
      auto it = by_platform.find(p);
      line.push_back(ValueCell(it == by_platform.end() ? nullptr : it->second, unit.empty()));
    }
    const BenchRow* native = by_platform.count("native") ? by_platform["native"] : nullptr;
    const BenchRow* systrap = by_platform.count("systrap") ? by_platform["systrap"] : nullptr;
    line.push_back(native && systrap && native->unit == systrap->unit
                       ? FormatRatio(Ratio(systrap->value, native->value))
                       : "");
    table.push_back(line);
  }
  std::vector<std::string> header = {"workload", "tasks"};
  header.insert(header.end(), platforms.begin(), platforms.end());
  header.push_back("systrap/native");
  return UnitNote(unit) + MarkdownTable(header, table, "lr") + "\n";
}

std::string PeerColumn(const std::string& platform) {
  if (platform == "systrap") return "snare systrap";
  if (platform == "strace") return "strace -f";
  return platform;
}

std::string PeerSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> subjects;
  std::vector<std::string> platforms = {"native", "systrap", "runsc-ptrace", "proot", "strace"};
  for (const BenchRow* row : rows) {
    AddOnce(subjects, row->name);
    AddOnce(platforms, row->platform);
  }
  const std::string unit = CommonUnit(rows);
  std::vector<std::vector<std::string>> table;
  for (const auto& subject : subjects) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == subject) by_platform.emplace(row->platform, row);
    }
    std::vector<std::string> line = {subject};
    for (const auto& p : platforms) {
      auto it = by_platform.find(p);
      line.push_back(ValueCell(it == by_platform.end() ? nullptr : it->second, unit.empty()));
    }
    std::string ratios;
    auto snare = by_platform.find("systrap");
    for (const auto& p : platforms) {
      auto it = by_platform.find(p);
      if (p == "native" || p == "systrap" || it == by_platform.end() ||
          snare == by_platform.end() || it->second->unit != snare->second->unit) {
        continue;
      }
      std::string r = FormatRatio(Ratio(it->second->value, snare->second->value));
      if (r.empty()) continue;
      if (!ratios.empty()) ratios += ", ";
      ratios += PeerColumn(p) + " " + r + "x";
    }
    line.push_back(ratios);
    table.push_back(line);
  }
  std::vector<std::string> header = {"subject"};
  for (const auto& p : platforms) header.push_back(PeerColumn(p));
  header.push_back("peer/snare ratios");
  std::string align(header.size(), 'r');
  align.front() = align.back() = 'l';
  return UnitNote(unit) + MarkdownTable(header, table, align) + "\n";
}

std::string OtherSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::vector<std::string>> table;
  for (const BenchRow* row : rows) {
    table.push_back(
        {row->name, row->platform, FormatParams(row->params), FormatNumber(row->value), row->unit});
  }
  return MarkdownTable({"name", "platform", "params", "value", "unit"}, table, "lllrl") + "\n";
}

std::string KernelText(const BenchRun& run) {
  return run.kernel + (run.kernel_variant.empty() ? "" : " (" + run.kernel_variant + ")");
}

std::string Code(const std::string& text) {
  return text.find('`') == std::string::npos ? "`" + text + "`" : text;
}

// ---------------------------------------------------------------------------------------
// JSON

Json RowJson(const BenchRow& row) {
  Json params = Json::object();
  for (const auto& [key, value] : row.params) params[key] = value;
  return {{"suite", row.suite}, {"name", row.name}, {"platform", row.platform}, {"params", params},
          {"value", row.value}, {"unit", row.unit}, {"samples", row.samples}};
}

Json RunJson(const BenchRun& run) {
  Json rows = Json::array();
  for (const auto& row : run.rows) rows.push_back(RowJson(row));
  return {{"id", run.id},
          {"started_at", run.started_at},
          {"kernel", run.kernel},
          {"kernel_variant", run.kernel_variant},
          {"cpu_model", run.cpu_model},
          {"cores", run.cores},
          {"revision", run.revision},
          {"command", run.command},
          {"quick", run.quick},
          {"duration_s", run.duration_s},
          {"rows", rows}};
}

// ---------------------------------------------------------------------------------------
// Plots

std::string FindOnPath(const std::string& program) {
  const char* env = getenv("PATH");
  std::string path = env && env[0] ? env : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return "";
}

// A gnuplot single-quoted string literal ('' stands for one quote inside).
std::string GpQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A double-quoted string in a gnuplot data file (it has no escape for '"').
std::string DataQuote(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  return "\"" + text + "\"";
}

std::string DataNumber(double v) {
  if (!std::isfinite(v)) return "?";
  char buf[64];
  snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

struct PlotSource {
  std::string name;  // "ladder": files NAME.dat, NAME.gp, NAME.FORMAT
  std::string data;
  std::string script;  // reads NAME.dat from the current directory; no terminal or output
};

std::optional<PlotSource> LadderPlot(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> syscalls, rungs;
  double lowest = std::numeric_limits<double>::infinity();
  for (const BenchRow* row : rows) {
    AddOnce(syscalls, Param(*row, "syscall"));
    AddOnce(rungs, row->name);
    if (row->value > 0 && std::isfinite(row->value)) lowest = std::min(lowest, row->value);
  }
  if (!std::isfinite(lowest)) return std::nullopt;  // nothing to draw on a log scale
  std::string data = "rung";
  for (const auto& s : syscalls) data += " " + DataQuote(s.empty() ? "ns/call" : s);
  data += "\n";
  for (const auto& rung : rungs) {
    data += DataQuote(rung);
    for (const auto& s : syscalls) {
      double v = kNaN;
      for (const BenchRow* row : rows) {
        if (row->name == rung && Param(*row, "syscall") == s && row->value > 0) {
          v = row->value;
          break;
        }
      }
      data += " " + DataNumber(v);
    }
    data += "\n";
  }
  std::string script =
      "set datafile missing '?'\n"
      "set style data histogram\n"
      "set style histogram clustered gap 1\n"
      "set style fill solid 0.8 border -1\n"
      "set logscale y\n"
      "set yrange [" +
      DataNumber(std::pow(10, std::floor(std::log10(lowest)))) +
      ":*]\n"
      "set title 'Cost of one syscall per rung'\n"
      "set ylabel 'ns/call (log scale)'\n"
      "set grid ytics\n"
      "set key top left autotitle columnheader\n"
      "set xtics rotate by -30 nomirror\n"
      "plot for [i=2:" +
      std::to_string(syscalls.size() + 1) + "] 'ladder.dat' using i:xtic(1)\n";
  return PlotSource{"ladder", data, script};
}

std::optional<PlotSource> DepthPlot(const std::vector<const BenchRow*>& rows) {
  std::string data, plots;
  int index = 0;
  auto groups = ByPlatform(rows);
  for (const auto& [platform, group] : groups) {
    std::vector<double> xs, ys;
    std::string block;
    for (const BenchRow* row : SortedBy(group, "depth")) {
      double depth = ParseNumber(Param(*row, "depth"));
      if (!std::isfinite(depth) || !std::isfinite(row->value)) continue;
      xs.push_back(depth);
      ys.push_back(row->value);
      block += DataNumber(depth) + " " + DataNumber(row->value) + "\n";
    }
    if (xs.empty()) continue;
    data += "# " + platform + "\n" + block + "\n\n";
    const std::string label = groups.size() > 1 ? platform + " " : "";
    if (!plots.empty()) plots += ", \\\n     ";
    plots += "'depth.dat' index " + std::to_string(index) + " using 1:2 with points pt 7 title " +
             GpQuote(label + "measured");
    if (auto fit = FitLine(xs, ys)) {
      std::string title = label + "fit: " + FormatNumber(fit->slope) + " ns/level";
      if (std::isfinite(fit->slope_ci95)) {
        title += " (95% CI +- " + FormatNumber(fit->slope_ci95) + ")";
      }
      plots += ", \\\n     " + DataNumber(fit->slope) + "*x + " + DataNumber(fit->intercept) +
               " with lines title " + GpQuote(title);
    }
    ++index;
  }
  if (plots.empty()) return std::nullopt;
  std::string script =
      "set datafile missing '?'\n"
      "set title 'Trap cost against user-namespace depth'\n"
      "set xlabel 'user namespace depth'\n"
      "set ylabel 'ns/trap'\n"
      "set grid\n"
      "set key top left\n"
      "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n"
      "plot " +
      plots + "\n";
  return PlotSource{"depth", data, script};
}

std::optional<PlotSource> ContentionPlot(const std::vector<const BenchRow*>& rows) {
  auto groups = ByPlatform(rows);
  std::string data, plots;
  int index = 0;
  double min_tasks = std::numeric_limits<double>::infinity(), max_tasks = 0;
  std::set<double> all_tasks;
  for (const auto& [platform, group] : groups) {
    std::vector<std::string> modes = {"same-ns", "sibling-ns", "distinct-uid"};
    for (const BenchRow* row : group) AddOnce(modes, Param(*row, "mode"));
    for (const auto& mode : modes) {
      std::string block;
      for (const BenchRow* row : SortedBy(group, "tasks")) {
        double tasks = ParseNumber(Param(*row, "tasks"));
        if (Param(*row, "mode") != mode || !std::isfinite(tasks)) continue;
        min_tasks = std::min(min_tasks, tasks);
        max_tasks = std::max(max_tasks, tasks);
        all_tasks.insert(tasks);
        block += DataNumber(tasks) + " " + DataNumber(row->value) + "\n";
      }
      if (block.empty()) continue;
      data += "# " + mode + " on " + platform + "\n" + block + "\n\n";
      if (!plots.empty()) plots += ", \\\n     ";
      std::string title = groups.size() > 1 ? mode + " (" + platform + ")" : mode;
      plots += "'contention.dat' index " + std::to_string(index++) +
               " using 1:2 with linespoints pt 7 title " + GpQuote(title);
    }
  }
  if (plots.empty()) return std::nullopt;
  std::string script =
      "set title 'Traps/s per process against trapping tasks'\n"
      "set xlabel 'tasks'\n"
      "set ylabel 'traps/s per process'\n"
      "set grid\n"
      "set key bottom left\n"
      "set yrange [0:*]\n"
      "set format y '%.1s %c'\n"
      "set offsets graph 0.03, graph 0.03, 0, 0\n";
  if (min_tasks > 0 && max_tasks / min_tasks >= 8) script += "set logscale x 2\n";
  if (all_tasks.size() <= 16) {  // one tic per measured task count
    std::string tics;
    for (double t : all_tasks) tics += (tics.empty() ? "" : ", ") + DataNumber(t);
    script += "set xtics (" + tics + ")\n";
  }
  script += "plot " + plots + "\n";
  return PlotSource{"contention", data, script};
}

// The terminal for `format`: pngcairo when this gnuplot has it, else libgd's png.
std::expected<std::string, std::string> Terminal(const std::string& gnuplot,
                                                 const std::string& format) {
  if (format == "svg") return "svg size 900,560 dynamic noenhanced background rgb 'white'";
  auto listing = RunProcess({gnuplot, "-e", "set terminal"});
  if (!listing) return std::unexpected("running " + gnuplot + ": " + listing.error());
  const std::string text = listing->out + listing->err;
  if (text.find("pngcairo") != std::string::npos) return "pngcairo size 900,560 noenhanced";
  if (text.find(" png ") != std::string::npos) return "png size 900,560 noenhanced";
  return std::unexpected(gnuplot + " has neither the pngcairo nor the png terminal: " +
                         "install gnuplot-nox (tools/setup.sh) or use svg");
}

std::expected<void, std::string> SyncFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(std::string(strerror(errno)));
  int rc = fsync(fd);
  int err = errno;
  close(fd);
  if (rc != 0) return std::unexpected(std::string(strerror(err)));
  return {};
}

}  // namespace

std::string RenderMarkdown(const BenchRun& run) {
  std::string out = "# snare bench run " + std::to_string(run.id) + "\n\n";
  out += "- date: " + run.started_at + "\n";
  out += "- kernel: " + KernelText(run) + "\n";
  out += "- CPU: " + run.cpu_model + "\n";
  out += "- cores: " + std::to_string(run.cores) + "\n";
  out += "- revision: " + run.revision + "\n";
  out += "- command: " + Code(run.command) + "\n";
  out += "- duration: " + Printf("%.1f", run.duration_s) + " s" +
         (run.quick ? " (quick run: fewer repetitions)" : "") + "\n";
  for (const auto& suite : SuitesInOrder({&run})) {
    auto rows = RowsOf(run, suite);
    if (rows.empty()) continue;
    while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
    out += "\n## " + suite + "\n\n";
    if (suite == "ladder") {
      out += LadderSection(rows);
    } else if (suite == "depth") {
      out += DepthSection(rows);
    } else if (suite == "contention") {
      out += ContentionSection(rows);
    } else if (suite == "workload") {
      out += WorkloadSection(rows);
    } else if (suite == "peer") {
      out += PeerSection(rows);
    } else {
      out += OtherSection(rows);
    }
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

std::string RenderJson(const BenchRun& run) {
  return RunJson(run).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string RenderComparison(const BenchRun& a, const BenchRun& b) {
  auto describe = [](const BenchRun& run) {
    return "run " + std::to_string(run.id) + ", " + run.started_at + ", kernel " + KernelText(run) +
           ", revision " + run.revision + ", " + run.cpu_model + " (" + std::to_string(run.cores) +
           " cores)" + (run.quick ? ", quick" : "");
  };
  std::string out = "# snare bench: run " + std::to_string(a.id) + " (A) against run " +
                    std::to_string(b.id) + " (B)\n\n";
  out += "- A: " + describe(a) + "\n- B: " + describe(b) + "\n\n";

  using Key = std::tuple<std::string, std::string, std::string, std::map<std::string, std::string>>;
  auto key_of = [](const BenchRow& row) {
    return Key{row.suite, row.name, row.platform, row.params};
  };
  std::vector<Key> keys;
  std::map<Key, const BenchRow*> in_a, in_b;
  for (const auto& row : a.rows) {
    if (in_a.emplace(key_of(row), &row).second) keys.push_back(key_of(row));
  }
  for (const auto& row : b.rows) {
    if (in_b.emplace(key_of(row), &row).second && !in_a.count(key_of(row))) {
      keys.push_back(key_of(row));
    }
  }
  const std::vector<std::string> suites = SuitesInOrder({&a, &b});
  auto rank = [&](const Key& k) {
    return std::find(suites.begin(), suites.end(), std::get<0>(k)) - suites.begin();
  };
  std::stable_sort(keys.begin(), keys.end(),
                   [&](const Key& x, const Key& y) { return rank(x) < rank(y); });

  std::vector<std::vector<std::string>> table;
  for (const Key& key : keys) {
    const auto& [suite, name, platform, params] = key;
    std::string point = name + " (" + platform;
    if (!params.empty()) point += "; " + FormatParams(params);
    point += ")";
    const BenchRow* ra = in_a.count(key) ? in_a[key] : nullptr;
    const BenchRow* rb = in_b.count(key) ? in_b[key] : nullptr;
    std::string ratio;
    if (ra && rb && ra->unit == rb->unit) ratio = FormatRatio(Ratio(rb->value, ra->value));
    table.push_back({suite, point, ValueCell(ra, true), ValueCell(rb, true), ratio});
  }
  return out + MarkdownTable({"suite", "point", "A", "B", "B/A"}, table, "ll");
}

std::expected<std::vector<std::string>, std::string> RenderPlots(const BenchRun& run,
                                                                 const std::string& dir,
                                                                 const std::string& format) {
  if (format != "png" && format != "svg") {
    return std::unexpected("unknown plot format '" + format + "': use png or svg");
  }
  std::vector<PlotSource> plots;
  if (auto rows = RowsOf(run, "ladder"); !rows.empty()) {
    if (auto p = LadderPlot(rows)) plots.push_back(*p);
  }
  if (auto rows = RowsOf(run, "depth"); !rows.empty()) {
    if (auto p = DepthPlot(rows)) plots.push_back(*p);
  }
  if (auto rows = RowsOf(run, "contention"); !rows.empty()) {
    if (auto p = ContentionPlot(rows)) plots.push_back(*p);
  }
  if (plots.empty()) return std::vector<std::string>{};

  const std::string gnuplot = FindOnPath("gnuplot");
  if (gnuplot.empty()) return std::unexpected("gnuplot not found: run tools/setup.sh");
  auto terminal = Terminal(gnuplot, format);
  if (!terminal) return std::unexpected(terminal.error());

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return std::unexpected("cannot create plot directory " + dir + ": " + ec.message());
  const std::string abs_dir = std::filesystem::absolute(dir, ec).string();
  if (ec) return std::unexpected("cannot resolve plot directory " + dir + ": " + ec.message());

  std::vector<std::string> written;
  for (const auto& plot : plots) {
    const std::string base = dir + "/" + plot.name;
    const std::string image = base + "." + format;
    const std::string script = "# snare bench run " + std::to_string(run.id) + ": " + plot.name +
                               " plot.\n"
                               "# Render again: cd into this directory, then\n"
                               "#   gnuplot -e \"set terminal " +
                               (format == "svg" ? "svg" : "pngcairo") + "; set output '" +
                               plot.name + "." + format + "'\" " + plot.name + ".gp\n" +
                               plot.script;
    for (const auto& [path, contents] :
         {std::pair{base + ".dat", plot.data}, std::pair{base + ".gp", script}}) {
      if (auto ok = WriteFileAtomically(path, contents); !ok) return std::unexpected(ok.error());
      written.push_back(path);
    }
    // gnuplot renders into a temporary name in the same directory; rename publishes it.
    const std::string tmp_name = plot.name + "." + format + ".tmp." + std::to_string(getpid());
    const std::string tmp = dir + "/" + tmp_name;
    const std::string setup = "cd " + GpQuote(abs_dir) + "; set terminal " + *terminal +
                              "; set output " + GpQuote(tmp_name);
    auto ran = RunProcess({gnuplot, "-e", setup, abs_dir + "/" + plot.name + ".gp"});
    struct stat st;
    if (!ran || ran->status != 0 || stat(tmp.c_str(), &st) != 0 || st.st_size == 0) {
      unlink(tmp.c_str());
      std::string why =
          !ran ? ran.error() : "exit status " + std::to_string(ran->status) + ": " + ran->err;
      return std::unexpected("gnuplot failed to render " + image + " (" + why + ")");
    }
    if (auto ok = SyncFile(tmp); !ok || rename(tmp.c_str(), image.c_str()) != 0) {
      std::string why = ok ? std::string(strerror(errno)) : ok.error();
      unlink(tmp.c_str());
      return std::unexpected("cannot write " + image + ": " + why);
    }
    written.push_back(image);
  }
  return written;
}

}  // namespace snare::bench
