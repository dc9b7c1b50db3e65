// `snare bench` command line.
#ifndef SNARE_BENCH_BENCH_OPTIONS_H_
#define SNARE_BENCH_BENCH_OPTIONS_H_

#include <expected>
#include <set>
#include <string>
#include <vector>

namespace snare::bench {

struct BenchOptions {
  bool quick = false;
  std::string db;  // empty: ResultsStore::DefaultPath()
  std::set<std::string> suites;
  std::set<std::string> rungs;
  std::set<std::string> subjects;  // ladder syscalls
  int max_depth = 32;
  int depth_step = 1;
  int max_tasks = 0;  // 0: online CPUs
  int reps = 7;
  bool json = false;
};

inline constexpr const char* kBenchUsage =
    "usage: snare bench [--quick] [--db=PATH] [--suites=LIST] [--rungs=LIST] [--syscalls=LIST]\n"
    "                   [--max-depth=N] [--depth-step=N] [--max-tasks=N] [--reps=N] [--json]\n"
    "  suites:   ladder, depth, contention, workloads, peers, memory (default: all)\n"
    "  rungs:    native, filter-allow, filter-errno, signal-floor, inproc, systrap,\n"
    "            systrap-futex, systrap-1cpu (default: all)\n"
    "  syscalls: getppid, read4k, openat-close (default: all)\n"
    "  --quick:  fewer repetitions and points; under a minute on 2 cores\n";

const std::vector<std::string>& SuiteNames();
const std::vector<std::string>& RungNames();

std::expected<BenchOptions, std::string> ParseBenchOptions(const std::vector<std::string>& args);

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_OPTIONS_H_
