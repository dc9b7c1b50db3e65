// What `snare bench` measures (parsed by cmd/bench_command.cc).
//
//   ladder      one syscall per rung: native, filter-allow, filter-errno, signal-floor,
//               inproc, systrap, systrap-futex, systrap-1cpu, systrap-confined,
//               systrap-notify
//   depth       the signal floor at user-namespace depth 0..max-depth
//   contention  1..max-tasks trapping processes: same-ns, sibling-ns, distinct-uid
//   workloads   the seed threads' benchmarks natively and under both platforms
//   peers       runsc --platform=ptrace, proot and strace -f beside snare
//   memory      the sentry's memory per guest thread
//   cpython     CPython's regression suite per module, natively and under the three
//               platforms (the default profile), test by test; only when --suites names it
//   stress      stress-ng's stressors natively and under each platform (bogo ops/s)
#ifndef SNARE_BENCH_BENCH_OPTIONS_H_
#define SNARE_BENCH_BENCH_OPTIONS_H_

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
  std::vector<std::string> cpython_modules;  // empty: CpythonModules()
  std::string cpython_logs;  // where to keep each module's -v output and XML; empty: nowhere
};

const std::vector<std::string>& SuiteNames();
const std::vector<std::string>& RungNames();
// The regression-test modules the cpython suite runs: those that exercise the kernel interface.
const std::vector<std::string>& CpythonModules();

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_OPTIONS_H_
