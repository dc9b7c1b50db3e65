// `snare bench`: measures the ladder, the ucount sweeps, the seed workloads and the peers
// in one run, stores it (one transaction) and prints the report.
#ifndef SNARE_BENCH_BENCH_COMMAND_H_
#define SNARE_BENCH_BENCH_COMMAND_H_

#include <string>
#include <vector>

namespace snare::bench {

// args: everything after "bench"; returns the exit status.
int RunBenchCommand(const std::vector<std::string>& args, const std::string& command_line);

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_COMMAND_H_
