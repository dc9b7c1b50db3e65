#include <unistd.h>

#include "bench/suites.h"

namespace snare::bench {

void AddContentionSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  const double seconds = context.options().quick ? 0.25 : 1.0;
  for (int tasks = 1; tasks <= context.max_tasks(); ++tasks) {
    for (const std::string mode : {"same-ns", "sibling-ns", "distinct-uid"}) {
      if (mode == "distinct-uid" && geteuid() != 0) {
        context.Note("contention distinct-uid skipped: needs root");
        continue;
      }
      auto argv =
          context.Workload({"contention", mode, std::to_string(tasks), SecondsArg(seconds)});
      BenchStep step;
      step.label = "contention " + mode + " x" + std::to_string(tasks);
      step.measure = [argv]() -> std::expected<std::vector<double>, std::string> {
        auto j = BenchContext::RunJson(argv);
        if (!j) return std::unexpected(j.error());
        return (*j)["per_task"].get<std::vector<double>>();
      };
      step.row = {
          "contention", mode, "native", {{"mode", mode}, {"tasks", std::to_string(tasks)}}, 0,
          "traps/s",    {}};
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
