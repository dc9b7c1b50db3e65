// The measured programs behind `snare-workload ...` (parsed by cmd/workload_command.cc).
// snare bench runs them as child processes, natively and under `snare run` (snare-workload
// is the guest), and reads one JSON line from their stdout. Each returns the exit status;
// failures print "snare-workload: WHAT" and return 2.
//
//   snare-workload trap-loop MODE SUBJECT CALLS   {"ns_per_call": X}      (Google Benchmark)
//   snare-workload depth-sweep MAX STEP CALLS     {"caller_depth": K, "points": [[d, ns], ...]}
//   snare-workload contention MODE TASKS SECONDS  {"per_task": [...]}     traps/s
//   snare-workload seed NAME TASKS SECONDS        {"per_task": [...]}     ops/s
//   snare-workload threads N                      {"threads": N}          N threads alive at once
//   snare-workload handoff ROUNDS                 {"ns_per_call": X}      one cache line's round
//                                                                          trip between two CPUs
#ifndef SNARE_BENCH_WORKLOAD_PROGRAMS_H_
#define SNARE_BENCH_WORKLOAD_PROGRAMS_H_

#include <string>
#include <string_view>
#include <vector>

#include "bench/workload_catalog.h"

namespace snare::bench {

// MODE: native (no filter), allow, errno or sigsys (the signal floor); SUBJECT: getppid,
// read4k or openat-close.
int RunTrapLoop(std::string_view mode, std::string_view subject, long calls);
int RunDepthSweepProgram(int max_depth, int step, long calls);
int RunContentionProgram(std::string_view mode, int tasks, double seconds);
int RunSeedProgram(std::string_view name, int tasks, double seconds);
int RunThreadsProgram(int threads);
// Two threads on the first two allowed CPUs pass one cache line back and forth ROUNDS times:
// the least an exchange with a sentry on another CPU costs here (a request over, a reply back),
// with no signal and no syscall in it.
int RunHandoffProgram(long rounds);

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOAD_PROGRAMS_H_
