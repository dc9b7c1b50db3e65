// One `snare bench` run: measure every selected suite in interleaved rounds, store the run
// in one transaction, print the report.
#ifndef SNARE_BENCH_BENCH_RUN_H_
#define SNARE_BENCH_BENCH_RUN_H_

#include <string>

#include "bench/bench_options.h"

namespace snare::bench {

// command_line is stored with the run. Returns the exit status.
int RunBench(const BenchOptions& options, const std::string& command_line);

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_RUN_H_
