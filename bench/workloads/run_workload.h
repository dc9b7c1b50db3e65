// What every seed workload shares: check the arguments, give each task a fresh Body, run
// them as a task group and report operations per second per task.
#ifndef SNARE_BENCH_WORKLOADS_RUN_WORKLOAD_H_
#define SNARE_BENCH_WORKLOADS_RUN_WORKLOAD_H_

#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "bench/workloads/seed_workloads.h"
#include "bench/workloads/task_group.h"

namespace snare::bench {

// How a seed workload runs its tasks.
struct WorkloadShape {
  std::string name;
  TaskKind kind = TaskKind::kProcess;
  bool pin = true;                   // one task per CPU
  uint64_t ops_per_clock_check = 1;  // operations between looks at the clock
};

template <typename Body>
std::expected<WorkloadResult, std::string> RunWorkload(const WorkloadShape& shape, int tasks,
                                                       double seconds, double warmup_seconds) {
  TaskGroupOptions options;
  options.name = shape.name;
  options.kind = shape.kind;
  options.pin = shape.pin;
  options.warmup_seconds = warmup_seconds;
  options.seconds = seconds;
  options.ops_per_clock_check = shape.ops_per_clock_check;
  if (auto checked = CheckWorkloadArgs(tasks, options.seconds, options.warmup_seconds); !checked) {
    return std::unexpected(options.name + ": " + checked.error());
  }
  std::vector<std::unique_ptr<Body>> owned;
  std::vector<TaskBody*> bodies;
  for (int i = 0; i < tasks; ++i) {
    owned.push_back(std::make_unique<Body>());
    bodies.push_back(owned.back().get());
  }
  std::expected<TaskGroupResult, std::string> measured = RunTaskGroup(options, bodies);
  if (!measured) return std::unexpected(measured.error());
  return WorkloadResult{measured->OpsPerSecond(), measured->LongestSeconds()};
}

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOADS_RUN_WORKLOAD_H_
