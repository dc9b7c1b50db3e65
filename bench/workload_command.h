// `snare __workload ...`: the measured programs. snare bench runs them as child processes,
// natively and under `snare run` (the snare binary is the guest), and reads one JSON line
// from their stdout.
//
//   __workload trap-loop MODE SUBJECT CALLS     {"ns_per_call": X}      (Google Benchmark)
//   __workload depth-sweep MAX STEP CALLS       {"caller_depth": K, "points": [[d, ns], ...]}
//   __workload contention MODE TASKS SECONDS    {"per_task": [...]}     traps/s
//   __workload seed NAME TASKS SECONDS          {"per_task": [...]}     ops/s
//   __workload threads N                        {"threads": N}          N threads alive at once
#ifndef SNARE_BENCH_WORKLOAD_COMMAND_H_
#define SNARE_BENCH_WORKLOAD_COMMAND_H_

#include <string>
#include <vector>

namespace snare::bench {

inline constexpr const char* kWorkloadCommand = "__workload";

int RunWorkloadCommand(const std::vector<std::string>& args);

// Seed workload names: signal1-processes, signal1-threads, tasklist, thread-create-join.
const std::vector<std::string>& SeedWorkloadNames();

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOAD_COMMAND_H_
