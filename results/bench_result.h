// What `snare bench` measures and stores: one run (the machine and build it came from) and
// its result rows (one median per measured point, with the samples behind it).
#ifndef SNARE_RESULTS_BENCH_RESULT_H_
#define SNARE_RESULTS_BENCH_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace snare::results {

struct BenchRow {
  std::string suite;     // "ladder", "depth", "contention", "workload", "peer"
  std::string name;      // rung, sweep point or workload name, e.g. "signal-floor"
  std::string platform;  // "native", "inproc", "systrap", "runsc-ptrace", "proot", "strace"
  std::map<std::string, std::string> params;  // e.g. {"syscall","getppid"}, {"depth","8"}
  double value = 0;                           // the median of samples
  std::string unit;                           // "ns/call", "ops/s/task", "ms"
  std::vector<double> samples;
};

struct BenchRun {
  int64_t id = 0;                       // assigned by the store
  std::string started_at;               // ISO 8601 UTC
  std::string kernel;                   // uname -r
  std::string kernel_variant = "host";  // "host", or a kernel-lab variant ("stock", "reserve")
  std::string cpu_model;                // /proc/cpuinfo "model name"
  int cores = 0;                        // online CPUs
  std::string revision;                 // snare's git revision
  std::string command;                  // the command line that produced it
  bool quick = false;
  double duration_s = 0;
  std::vector<BenchRow> rows;
};

// Median of a non-empty vector (mean of the two middle values for even sizes).
double Median(std::vector<double> values);

}  // namespace snare::results

#endif  // SNARE_RESULTS_BENCH_RESULT_H_
