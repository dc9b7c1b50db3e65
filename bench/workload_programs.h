// The measured programs behind `snare __workload ...` (parsed by cmd/workload_command.cc).
// snare bench runs them as child processes, natively and under `snare run` (the snare binary
// is the guest), and reads one JSON line from their stdout. Each returns the exit status;
// failures print "snare __workload: WHAT" and return 2.
//
//   __workload trap-loop MODE SUBJECT CALLS     {"ns_per_call": X}      (Google Benchmark)
//   __workload depth-sweep MAX STEP CALLS       {"caller_depth": K, "points": [[d, ns], ...]}
//   __workload contention MODE TASKS SECONDS    {"per_task": [...]}     traps/s
//   __workload seed NAME TASKS SECONDS          {"per_task": [...]}     ops/s
//   __workload threads N                        {"threads": N}          N threads alive at once
#ifndef SNARE_BENCH_WORKLOAD_PROGRAMS_H_
#define SNARE_BENCH_WORKLOAD_PROGRAMS_H_

#include <string>
#include <string_view>
#include <vector>

namespace snare::bench {

inline constexpr const char* kWorkloadCommand = "__workload";

// MODE: native (no filter), allow, errno or sigsys (the signal floor); SUBJECT: getppid,
// read4k or openat-close.
int RunTrapLoop(std::string_view mode, std::string_view subject, long calls);
int RunDepthSweepProgram(int max_depth, int step, long calls);
int RunContentionProgram(std::string_view mode, int tasks, double seconds);
int RunSeedProgram(std::string_view name, int tasks, double seconds);
int RunThreadsProgram(int threads);

// Seed workload names: signal1-processes, signal1-threads, tasklist, thread-create-join.
const std::vector<std::string>& SeedWorkloadNames();

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOAD_PROGRAMS_H_
