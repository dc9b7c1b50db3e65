#include "bench/workload_command.h"

#include <benchmark/benchmark.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "bench/syscall_subject.h"
#include "bench/trap_filter.h"
#include "bench/trap_sweeps.h"
#include "bench/workloads/seed_workloads.h"

namespace snare::bench {
namespace {

int Fail(const std::string& message) {
  fprintf(stderr, "snare %s: %s\n", kWorkloadCommand, message.c_str());
  return 2;
}

bool ParseLong(const std::string& s, long lo, long hi, long* out) {
  char* end;
  long v = strtol(s.c_str(), &end, 10);
  if (s.empty() || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool ParseSeconds(const std::string& s, double* out) {
  char* end;
  double v = strtod(s.c_str(), &end);
  if (s.empty() || *end || !(v > 0) || v > 3600) return false;
  *out = v;
  return true;
}

// Captures the one run's real time per iteration.
class CaptureReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) ns_per_iteration = run.GetAdjustedRealTime();
  }
  double ns_per_iteration = -1;
};

int TrapLoop(const std::vector<std::string>& a) {
  long calls;
  if (a.size() != 4 || !ParseLong(a[3], 1, 1'000'000'000, &calls)) {
    return Fail("usage: trap-loop native|allow|errno|sigsys SUBJECT CALLS");
  }
  auto mode = ParseFilterMode(a[1]);
  if (!mode) return Fail(mode.error());
  auto subject = SyscallSubject::Create(a[2]);
  if (!subject) return Fail(subject.error());
  SyscallSubject* s = &*subject;
  benchmark::RegisterBenchmark(a[2].c_str(),
                               [s](benchmark::State& state) {
                                 for (auto _ : state) s->Call();
                               })
      ->Iterations(calls)
      ->Unit(benchmark::kNanosecond);
  int argc = 1;
  char arg0[] = "snare";
  char* argv[] = {arg0, nullptr};
  benchmark::Initialize(&argc, argv);
  // Google Benchmark reads /proc and /sys lazily; do it before the filter traps openat.
  benchmark::CPUInfo::Get();
  benchmark::SystemInfo::Get();
  if (auto ok = InstallTrapFilter(*mode, subject->numbers()); !ok) return Fail(ok.error());
  CaptureReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  if (reporter.ns_per_iteration < 0) return Fail("the benchmark did not run");
  printf("%s\n", nlohmann::json{{"ns_per_call", reporter.ns_per_iteration}}.dump().c_str());
  return 0;
}

int DepthSweep(const std::vector<std::string>& a) {
  long max_depth, step, calls;
  if (a.size() != 4 || !ParseLong(a[1], 0, 1000, &max_depth) || !ParseLong(a[2], 1, 32, &step) ||
      !ParseLong(a[3], 1, 100'000'000, &calls)) {
    return Fail("usage: depth-sweep MAX_DEPTH STEP CALLS");
  }
  int caller = CallerUserNamespaceDepth();
  auto points = RunDepthSweep(static_cast<int>(max_depth), static_cast<int>(step), calls);
  if (!points) return Fail(points.error());
  nlohmann::json j = {{"caller_depth", caller}, {"points", nlohmann::json::array()}};
  for (const auto& p : *points) j["points"].push_back({p.depth, p.ns_per_trap});
  printf("%s\n", j.dump().c_str());
  return 0;
}

int Contention(const std::vector<std::string>& a) {
  long tasks;
  double seconds;
  if (a.size() != 4 || !ParseLong(a[2], 1, 1024, &tasks) || !ParseSeconds(a[3], &seconds)) {
    return Fail("usage: contention same-ns|sibling-ns|distinct-uid TASKS SECONDS");
  }
  auto mode = ParseContentionMode(a[1]);
  if (!mode) return Fail(mode.error());
  auto rates = RunContention(*mode, static_cast<int>(tasks), seconds);
  if (!rates) return Fail(rates.error());
  printf("%s\n", nlohmann::json{{"per_task", *rates}}.dump().c_str());
  return 0;
}

int Seed(const std::vector<std::string>& a) {
  long tasks;
  double seconds;
  if (a.size() != 4 || !ParseLong(a[2], 1, 1024, &tasks) || !ParseSeconds(a[3], &seconds)) {
    return Fail("usage: seed NAME TASKS SECONDS");
  }
  std::expected<WorkloadResult, std::string> r;
  int n = static_cast<int>(tasks);
  if (a[1] == "signal1-processes") {
    r = RunSignal1(n, false, seconds);
  } else if (a[1] == "signal1-threads") {
    r = RunSignal1(n, true, seconds);
  } else if (a[1] == "tasklist") {
    r = RunTasklistBench(n, seconds);
  } else if (a[1] == "thread-create-join") {
    r = RunThreadCreateJoin(n, seconds);
  } else {
    return Fail("unknown seed workload '" + a[1] +
                "' (signal1-processes, signal1-threads, tasklist, thread-create-join)");
  }
  if (!r) return Fail(r.error());
  printf("%s\n", nlohmann::json{{"per_task", r->per_task_ops_per_s}}.dump().c_str());
  return 0;
}

pthread_barrier_t g_barrier;

void* WaitAtBarrier(void*) {
  pthread_barrier_wait(&g_barrier);
  return nullptr;
}

// N threads alive at once (all wait on a barrier): what the sentry spends per guest thread.
int Threads(const std::vector<std::string>& a) {
  long n;
  if (a.size() != 2 || !ParseLong(a[1], 1, 4000, &n)) return Fail("usage: threads N (1..4000)");
  pthread_barrier_init(&g_barrier, nullptr, static_cast<unsigned>(n) + 1);
  std::vector<pthread_t> threads(static_cast<size_t>(n));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  for (auto& t : threads) {
    if (pthread_create(&t, &attr, WaitAtBarrier, nullptr) != 0)
      return Fail("pthread_create failed");
  }
  pthread_barrier_wait(&g_barrier);
  for (auto& t : threads) pthread_join(t, nullptr);
  printf("%s\n", nlohmann::json{{"threads", n}}.dump().c_str());
  return 0;
}

}  // namespace

const std::vector<std::string>& SeedWorkloadNames() {
  static const std::vector<std::string> names = {"signal1-processes", "signal1-threads", "tasklist",
                                                 "thread-create-join"};
  return names;
}

int RunWorkloadCommand(const std::vector<std::string>& args) {
  if (args.empty()) return Fail("missing workload (trap-loop, depth-sweep, contention, seed)");
  if (args[0] == "trap-loop") return TrapLoop(args);
  if (args[0] == "depth-sweep") return DepthSweep(args);
  if (args[0] == "contention") return Contention(args);
  if (args[0] == "seed") return Seed(args);
  if (args[0] == "threads") return Threads(args);
  return Fail("unknown workload '" + args[0] + "'");
}

}  // namespace snare::bench
