#include "bench/workload_programs.h"

#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/syscall_subject.h"
#include "bench/trap_filter.h"
#include "bench/trap_sweeps.h"
#include "bench/workloads/seed_workloads.h"
#include "util/allowed_cpus.h"

namespace snare::bench {
namespace {

int Fail(const std::string& message) {
  fprintf(stderr, "%s: %s\n", kWorkloadExecutable, message.c_str());
  return 2;
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

pthread_barrier_t g_barrier;

bool PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

// The word the two threads of the handoff program pass between them, on a line of its own.
struct alignas(64) HandoffLine {
  std::atomic<long> turn{0};
};
HandoffLine g_handoff;

// Hands the line over on odd turns, waits for it back on even ones (or the other way round).
void PassTurns(long first, long count, long parity) {
  for (long i = first; i < first + count; ++i) {
    while (g_handoff.turn.load(std::memory_order_acquire) != 2 * i + parity) {
      __builtin_ia32_pause();
    }
    g_handoff.turn.store(2 * i + parity + 1, std::memory_order_release);
  }
}

struct PeerArgs {
  int cpu;
  long turns;
  bool pinned;
};

// The peer takes its turns even where it could not be pinned: the main thread waits for them.
void* HandoffPeer(void* p) {
  PeerArgs* args = static_cast<PeerArgs*>(p);
  args->pinned = PinTo(args->cpu);
  PassTurns(0, args->turns, 1);
  return nullptr;
}

void* WaitAtBarrier(void*) {
  pthread_barrier_wait(&g_barrier);
  return nullptr;
}

}  // namespace

int RunTrapLoop(std::string_view mode_name, std::string_view subject_name, long calls) {
  auto mode = ParseFilterMode(mode_name);
  if (!mode) return Fail(mode.error());
  auto subject = SyscallSubject::Create(subject_name);
  if (!subject) return Fail(subject.error());
  SyscallSubject* s = &*subject;
  benchmark::RegisterBenchmark(std::string(subject_name).c_str(),
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
  const double ns = reporter.ns_per_iteration - static_cast<double>(subject->work_ns());
  printf("%s\n", nlohmann::json{{"ns_per_call", ns}}.dump().c_str());
  return 0;
}

int RunDepthSweepProgram(int max_depth, int step, long calls) {
  int caller = CallerUserNamespaceDepth();
  auto points = RunDepthSweep(max_depth, step, calls);
  if (!points) return Fail(points.error());
  nlohmann::json j = {{"caller_depth", caller}, {"points", nlohmann::json::array()}};
  for (const auto& p : *points) j["points"].push_back({p.depth, p.ns_per_trap});
  printf("%s\n", j.dump().c_str());
  return 0;
}

int RunContentionProgram(std::string_view mode_name, int tasks, double seconds) {
  auto mode = ParseContentionMode(mode_name);
  if (!mode) return Fail(mode.error());
  auto rates = RunContention(*mode, tasks, seconds);
  if (!rates) return Fail(rates.error());
  printf("%s\n", nlohmann::json{{"per_task", *rates}}.dump().c_str());
  return 0;
}

int RunSeedProgram(std::string_view name, int n, double seconds) {
  std::expected<WorkloadResult, std::string> r;
  if (name == "signal1-processes") {
    r = RunSignal1(n, false, seconds);
  } else if (name == "signal1-threads") {
    r = RunSignal1(n, true, seconds);
  } else if (name == "tasklist") {
    r = RunTasklistBench(n, seconds);
  } else if (name == "thread-create-join") {
    r = RunThreadCreateJoin(n, seconds);
  } else {
    return Fail("unknown seed workload '" + std::string(name) +
                "' (signal1-processes, signal1-threads, tasklist, thread-create-join)");
  }
  if (!r) return Fail(r.error());
  printf("%s\n", nlohmann::json{{"per_task", r->per_task_ops_per_s}}.dump().c_str());
  return 0;
}

int RunHandoffProgram(long rounds) {
  const auto cpus = util::AllowedCpus();
  if (!cpus) return Fail(cpus.error());
  if (cpus->size() < 2) return Fail("handoff needs two CPUs to run on; this process may use one");
  const long warm_up = rounds / 10 + 1;
  PeerArgs args = {(*cpus)[1], warm_up + rounds, false};
  g_handoff.turn.store(0);
  pthread_t peer;
  if (pthread_create(&peer, nullptr, HandoffPeer, &args) != 0) return Fail("pthread_create failed");
  const bool pinned = PinTo((*cpus)[0]);
  PassTurns(0, warm_up, 0);
  // The median of 25 batches: a batch in which the host or the scheduler took a CPU away
  // says nothing about the line.
  constexpr long kBatches = 25;
  std::vector<double> per_round;
  long done = warm_up;
  for (long b = 0; b < kBatches; ++b) {
    const long n = rounds / kBatches + (b < rounds % kBatches ? 1 : 0);
    if (n == 0) continue;
    const auto start = std::chrono::steady_clock::now();
    PassTurns(done, n, 0);
    done += n;
    per_round.push_back(
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        static_cast<double>(n));
  }
  pthread_join(peer, nullptr);
  // Two threads that may share a CPU measure the scheduler, not the line.
  if (!pinned || !args.pinned) {
    return Fail("cannot pin the two threads to CPUs " + std::to_string((*cpus)[0]) + " and " +
                std::to_string((*cpus)[1]));
  }
  std::sort(per_round.begin(), per_round.end());
  const double median = per_round[per_round.size() / 2];
  printf("%s\n", nlohmann::json{{"ns_per_call", median}}.dump().c_str());
  return 0;
}

// N threads alive at once (all wait on a barrier): what the sentry spends per guest thread.
int RunThreadsProgram(int n) {
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

}  // namespace snare::bench
