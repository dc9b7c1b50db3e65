#include "bench/lab_saving.h"

#include <cstdlib>

#include "results/line_fit.h"

namespace snare::bench {
namespace {

std::expected<double, std::string> CostAt(const results::BenchRun& run, int depth) {
  std::vector<double> xs, ys;
  for (const auto& row : run.rows) {
    auto it = row.params.find("depth");
    if (row.suite != "depth" || it == row.params.end()) continue;
    xs.push_back(std::atof(it->second.c_str()));
    ys.push_back(row.value);
  }
  auto fit = results::FitLine(xs, ys);
  if (!fit) {
    return std::unexpected("lab run " + std::to_string(run.id) + " (" + run.kernel_variant +
                           "): " + fit.error());
  }
  return fit->intercept + fit->slope * depth;
}

}  // namespace

std::expected<results::BenchRow, std::string> LabSavingRow(const results::BenchRun& stock,
                                                           const results::BenchRun& reserve,
                                                           int depth) {
  auto s = CostAt(stock, depth);
  if (!s) return std::unexpected(s.error());
  auto r = CostAt(reserve, depth);
  if (!r) return std::unexpected(r.error());
  if (!(*s > 0)) return std::unexpected("lab run " + std::to_string(stock.id) + ": no trap cost");
  results::BenchRow row;
  row.suite = kLabSavingSuite;
  row.name = "reserve-kernel";
  row.platform = "native";
  row.unit = "fraction";
  row.value = 1 - *r / *s;
  row.samples = {row.value};
  row.params = {{"depth", std::to_string(depth)},
                {"stock_run", std::to_string(stock.id)},
                {"reserve_run", std::to_string(reserve.id)},
                {"stock_ns_per_trap", std::to_string(*s)},
                {"reserve_ns_per_trap", std::to_string(*r)}};
  return row;
}

std::expected<results::BenchRow, std::string> LatestLabSaving(results::ResultsStore& store,
                                                              int depth) {
  auto runs = store.ListRuns();
  if (!runs) return std::unexpected(runs.error());
  int64_t stock = 0, reserve = 0;
  for (const auto& run : *runs) {  // oldest first: the last of each variant wins
    if (run.kernel_variant == "stock") stock = run.id;
    if (run.kernel_variant == "reserve") reserve = run.id;
  }
  if (!stock || !reserve) {
    return std::unexpected("no stock and reserve lab runs in " + store.path() +
                           " (snare lab run --db=" + store.path() + " stores them)");
  }
  auto a = store.Load(stock);
  if (!a) return std::unexpected(a.error());
  auto b = store.Load(reserve);
  if (!b) return std::unexpected(b.error());
  return LabSavingRow(*a, *b, depth);
}

}  // namespace snare::bench
