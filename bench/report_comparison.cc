// RenderComparison: every measured point of two runs side by side.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bench/report.h"
#include "bench/report_format.h"

namespace snare::bench {

using results::BenchRow;
using results::BenchRun;

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

}  // namespace snare::bench
