// Runs a benchmark subject (a guest natively or under snare) and captures its stdout.
#ifndef SNARE_BENCH_PROCESS_RUNNER_H_
#define SNARE_BENCH_PROCESS_RUNNER_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::bench {

struct ProcessResult {
  int status = -1;  // as a shell reports it
  std::string out;
  std::string err;
};

// cpu >= 0 pins the process (and everything it starts) to that CPU.
std::expected<ProcessResult, std::string> RunProcess(const std::vector<std::string>& argv,
                                                     int cpu = -1);

// Finds a file shipped with the benchmark (Bazel runfiles: "bench/trap_loop", "sentry/snare").
std::string Runfile(const std::string& argv0, const std::string& path);

}  // namespace snare::bench

#endif  // SNARE_BENCH_PROCESS_RUNNER_H_
