#include "bench/suites.h"
#include "bench/workload_catalog.h"

namespace snare::bench {

void AddWorkloadSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  const double seconds = context.options().quick ? 0.2 : 1.0;
  for (const std::string& name : SeedWorkloadNames()) {
    for (int tasks = 1; tasks <= context.max_tasks(); ++tasks) {
      for (const std::string platform : {"native", "inproc", "systrap"}) {
        auto argv = context.Workload({"seed", name, std::to_string(tasks), SecondsArg(seconds)});
        if (platform != "native") argv = context.UnderSnare(platform, {}, argv);
        BenchStep step;
        step.label = "workload " + name + " x" + std::to_string(tasks) + " " + platform;
        step.measure = [argv]() -> std::expected<std::vector<double>, std::string> {
          auto j = BenchContext::RunJson(argv);
          if (!j) return std::unexpected(j.error());
          return (*j)["per_task"].get<std::vector<double>>();
        };
        step.row = {"workload", name,         platform, {{"tasks", std::to_string(tasks)}},
                    0,          "ops/s/task", {}};
        steps->push_back(std::move(step));
      }
    }
  }
}

}  // namespace snare::bench
