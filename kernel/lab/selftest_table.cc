#include "kernel/lab/selftest_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "kernel/lab/selftest_builder.h"

namespace snare::lab {
namespace {

const results::BenchRow* Find(const results::BenchRun& run, const std::string& name) {
  for (const auto& row : run.rows) {
    if (row.suite == "selftest" && row.name == name) return &row;
  }
  return nullptr;
}

std::string SelftestCell(const results::BenchRow& row) {
  const auto& p = row.params;
  auto get = [&](const char* k) { return p.count(k) ? p.at(k) : std::string(); };
  std::string cell = get("verdict") + " (ok " + get("ok");
  if (get("not_ok") != "0") cell += ", not ok " + get("not_ok");
  if (get("skip") != "0") cell += ", skip " + get("skip");
  if (get("verdict") != "pass") {
    cell += get("timed_out") == "1" ? ", timed out" : ", exit " + get("exit");
    if (!get("signal").empty()) cell += ", signal " + get("signal");
  }
  return cell + ")";
}

}  // namespace

results::BenchRow SelftestRow(const SelftestOutcome& t) {
  results::BenchRow row;
  row.suite = "selftest";
  row.name = t.name;
  row.platform = "native";
  SelftestVerdict verdict = VerdictOf(t);
  row.value = verdict == SelftestVerdict::kPass ? 1 : verdict == SelftestVerdict::kSkip ? 0 : -1;
  row.unit = "verdict (1 pass, 0 skip, -1 fail)";
  row.samples = {row.value};
  row.params["verdict"] = VerdictName(verdict);
  row.params["exit"] = std::to_string(t.exit_status);
  if (t.signal) row.params["signal"] = std::to_string(t.signal);
  if (t.timed_out) row.params["timed_out"] = "1";
  row.params["ok"] = std::to_string(t.ok);
  row.params["not_ok"] = std::to_string(t.not_ok);
  row.params["skip"] = std::to_string(t.skip);
  row.params["seconds"] = fmt::format("{:.1f}", t.seconds);
  std::string failed = t.error;
  for (const auto& line : t.failed) failed += (failed.empty() ? "" : " | ") + line;
  if (!failed.empty()) row.params["failed"] = failed.substr(0, 400);
  return row;
}

SelftestTable MakeSelftestTable(const std::vector<results::BenchRun>& runs) {
  SelftestTable table;
  std::string& out = table.text;
  std::vector<std::string> names;
  for (const auto& run : runs) {
    for (const auto& row : run.rows) {
      if (row.suite == "selftest" &&
          std::find(names.begin(), names.end(), row.name) == names.end()) {
        names.push_back(row.name);
      }
    }
  }
  if (names.empty()) return table;
  out += fmt::format("\n| selftest |");
  for (const auto& run : runs) out += fmt::format(" {} |", run.kernel_variant);
  out += fmt::format("\n| --- |");
  for (size_t i = 0; i < runs.size(); ++i) out += fmt::format(" --- |");
  out += fmt::format("\n");
  const results::BenchRun* stock = nullptr;
  for (const auto& run : runs) {
    if (run.kernel_variant.rfind("stock", 0) == 0) stock = &run;
  }
  for (const auto& name : names) {
    out += fmt::format("| {}{} |", name, IsTimingSelftest(name) ? " (timing)" : "");
    const results::BenchRow* base = stock ? Find(*stock, name) : nullptr;
    for (const auto& run : runs) {
      const results::BenchRow* row = Find(run, name);
      out += fmt::format(" {} |", row ? SelftestCell(*row) : "not run");
      if (base && row && &run != stock && base->value > 0.5 && row->value < -0.5 &&
          !IsTimingSelftest(name)) {
        table.regressions +=
            fmt::format("snare lab: selftest {} passes on {} but fails on {}: {}\n", name,
                        stock->kernel_variant, run.kernel_variant,
                        row->params.count("failed") ? row->params.at("failed") : "");
      }
    }
    out += fmt::format("\n");
  }
  int pass = 0, skip = 0, fail = 0;
  for (const auto& run : runs) {
    pass = skip = fail = 0;
    for (const auto& row : run.rows) {
      if (row.suite != "selftest") continue;
      (row.value > 0.5 ? pass : row.value < -0.5 ? fail : skip) += 1;
    }
    out += fmt::format("{}{}: {} pass, {} skip, {} fail", &run == &runs[0] ? "\n" : "; ",
                       run.kernel_variant, pass, skip, fail);
  }
  out += fmt::format("\n");
  for (const auto& name : names) {
    if (IsTimingSelftest(name)) {
      out += fmt::format(
          "{}: its verdict compares timings, which emulation makes vary from run to run; a "
          "difference from stock is not counted as a regression\n",
          name);
    }
  }
  return table;
}

}  // namespace snare::lab
