#include <map>
#include <memory>

#include "bench/suites.h"

namespace snare::bench {

// One step per depth; the first depth of each round runs the whole sweep (the workload
// nests itself) and the others read its result.
void AddDepthSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  const BenchOptions& o = context.options();
  const long calls = o.quick ? 10000 : 50000;
  auto argv = context.Workload({"depth-sweep", std::to_string(o.max_depth),
                                std::to_string(o.depth_step), std::to_string(calls)});
  auto last_sweep = std::make_shared<std::map<int, double>>();
  for (int d = 0; d <= o.max_depth; ++d) {
    if (d % o.depth_step != 0 && d != o.max_depth) continue;
    BenchStep step;
    step.label = "depth sweep (signal floor at user-namespace depth " + std::to_string(d) + ")";
    step.measure = [&context, argv, d,
                    last_sweep]() -> std::expected<std::vector<double>, std::string> {
      if (d == 0) {
        auto j = BenchContext::RunJson(argv);
        if (!j) return std::unexpected(j.error());
        context.caller_depth = (*j)["caller_depth"].get<int>();
        last_sweep->clear();
        for (const auto& p : (*j)["points"]) (*last_sweep)[p[0].get<int>()] = p[1].get<double>();
      }
      auto it = last_sweep->find(d);
      if (it == last_sweep->end()) return std::unexpected(std::string("sweep gave no point"));
      return std::vector<double>{it->second};
    };
    step.row = {"depth", "signal-floor", "native", {{"depth", std::to_string(d)}},
                0,       "ns/trap",      {}};
    steps->push_back(std::move(step));
  }
}

}  // namespace snare::bench
