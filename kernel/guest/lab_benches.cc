#include "kernel/guest/lab_benches.h"

#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernel/guest/cpu_set.h"
#include "kernel/guest/lab_checks.h"
#include "kernel/guest/lab_output.h"
#include "kernel/guest/raw_syscall.h"
#include "kernel/guest/trap_filter.h"
#include "kernel/guest/user_namespace.h"
#include "util/monotonic_clock.h"

namespace snare::lab {
namespace {

constexpr uint16_t kBenchData = 0x0b0b;
constexpr long kTrapMagic = 0x5eb000000000;

// The signal floor: the smallest useful handler, which only sets the result (as the
// project's host benchmarks do).
void FloorHandler(int, siginfo_t*, void* ctx) {
  static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_RAX] = kTrapMagic;
}

std::expected<void, std::string> InstallFloorTrap() {
  if (auto r = InstallSignalHandler(SIGSYS, FloorHandler, SA_NODEFER); !r) return r;
  return InstallTrapFilter({{__NR_getppid, kBenchData}});
}

double NowNs() { return static_cast<double>(snare::util::MonotonicNs()); }

// Calls getppid `calls` times; returns how many results differed from `want`.
long CallLoop(long calls, long want) {
  long wrong = 0;
  for (long i = 0; i < calls; ++i) wrong += snare_lab_raw_syscall0(__NR_getppid) != want;
  return wrong;
}

// One warm-up of calls/10, then `reps` timed batches of `calls`: ns per call each.
std::vector<double> TimeBatches(long calls, int reps, long want, long* wrong) {
  *wrong += CallLoop(std::max(1L, calls / 10), want);
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    double t0 = NowNs();
    *wrong += CallLoop(calls, want);
    samples.push_back((NowNs() - t0) / static_cast<double>(calls));
  }
  return samples;
}

double Median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

std::string Fixed(double value) { return JsonNumber(value, 1); }

CheckResult DepthSweepBody(const Settings& settings) {
  if (auto r = InstallFloorTrap(); !r) return {false, r.error()};
  long wrong = 0;
  std::string medians;
  for (int depth = 0; depth <= settings.max_depth; ++depth) {
    std::vector<double> samples = TimeBatches(settings.batch, settings.reps, kTrapMagic, &wrong);
    EmitResult("depth", "signal-floor", "{\"depth\":" + std::to_string(depth) + "}", "ns/trap",
               samples, 1);
    if (depth == 0 || depth == settings.max_depth) {
      medians += (medians.empty() ? "" : ", ") + std::string("depth ") + std::to_string(depth) +
                 " median " + Fixed(Median(samples)) + " ns";
    }
    if (depth < settings.max_depth) {
      if (auto r = EnterUserNamespace(); !r) {
        return {false, "entering depth " + std::to_string(depth + 1) + ": " + r.error()};
      }
    }
  }
  if (wrong != 0) return {false, std::to_string(wrong) + " calls did not trap"};
  return {true, "depths 0.." + std::to_string(settings.max_depth) + ", " +
                    std::to_string(settings.reps) + " x " + std::to_string(settings.batch) +
                    " traps each; " + medians};
}

// The ordinary signal path, which a reservation for forced signals leaves alone and a
// per-CPU rlimit count changes: a signal queued to oneself with rt_sigqueueinfo (charged to
// RLIMIT_SIGPENDING at every user-namespace level) and dequeued by sigtimedwait. Returns
// ns per pair for each batch; *wrong counts pairs that failed.
std::vector<double> TimeSigqueuePairs(long pairs, int reps, long* wrong) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGRTMIN);
  sigprocmask(SIG_BLOCK, &set, &old);
  siginfo_t info = {};
  info.si_signo = SIGRTMIN;
  info.si_code = SI_QUEUE;
  info.si_pid = getpid();
  info.si_uid = getuid();
  const timespec zero = {};
  auto loop = [&](long n) {
    for (long i = 0; i < n; ++i) {
      siginfo_t copy = info;  // the kernel may write it
      if (syscall(SYS_rt_sigqueueinfo, info.si_pid, SIGRTMIN, &copy) != 0 ||
          syscall(SYS_rt_sigtimedwait, &set, nullptr, &zero, sizeof(uint64_t)) != SIGRTMIN) {
        ++*wrong;
      }
    }
  };
  loop(std::max(1L, pairs / 10));
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    double t0 = NowNs();
    loop(pairs);
    samples.push_back((NowNs() - t0) / static_cast<double>(pairs));
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return samples;
}

CheckResult LadderBody(const Settings& settings) {
  const long real_ppid = snare_lab_raw_syscall0(__NR_getppid);
  const std::string params = "{\"syscall\":\"getppid\"}";
  long wrong = 0;
  // Native calls are ~10x cheaper than traps: time 10x as many per batch.
  std::vector<double> native = TimeBatches(settings.batch * 10, settings.reps, real_ppid, &wrong);
  EmitResult("ladder", "native", params, "ns/call", native, 1);
  if (wrong != 0) return {false, std::to_string(wrong) + " native getppid calls returned junk"};
  std::vector<double> queued = TimeSigqueuePairs(settings.batch, settings.reps, &wrong);
  EmitResult("ladder", "sigqueue", "{\"syscall\":\"rt_sigqueueinfo+rt_sigtimedwait\"}", "ns/call",
             queued, 1);
  if (wrong != 0) return {false, std::to_string(wrong) + " sigqueue/sigtimedwait pairs failed"};
  if (auto r = InstallFloorTrap(); !r) return {false, r.error()};
  std::vector<double> floor = TimeBatches(settings.batch, settings.reps, kTrapMagic, &wrong);
  EmitResult("ladder", "signal-floor", params, "ns/call", floor, 1);
  if (wrong != 0) return {false, std::to_string(wrong) + " calls did not trap"};
  return {true, "getppid median " + Fixed(Median(native)) + " ns native, " + Fixed(Median(floor)) +
                    " ns trapped; sigqueue+dequeue " + Fixed(Median(queued)) + " ns"};
}

// --- contention ---------------------------------------------------------------------

constexpr int kMaxTasks = 256;

struct ContentionArea {
  int ready;  // workers set up and waiting
  int go;     // futex word: 1 starts them all
  double rate[kMaxTasks];
  long wrong[kMaxTasks];
  char error[kMaxTasks][160];
};

void Futex(int* word, int op, int value) {
  syscall(SYS_futex, word, op, value, nullptr, nullptr, 0);
}

[[noreturn]] void ContentionWorker(ContentionArea* area, int index, int cpu, bool own_namespace,
                                   long traps) {
  auto fail = [&](const std::string& why) {
    snprintf(area->error[index], sizeof(area->error[index]), "%s", why.c_str());
    __atomic_add_fetch(&area->ready, 1, __ATOMIC_SEQ_CST);
    _exit(1);
  };
  if (!PinToCpu(cpu)) fail("cannot pin to CPU " + std::to_string(cpu));
  if (own_namespace) {
    if (auto r = EnterUserNamespace(); !r) fail(r.error());
  }
  if (auto r = InstallFloorTrap(); !r) fail(r.error());
  long wrong = CallLoop(std::max(1L, std::min(10000L, traps / 10)), kTrapMagic);
  __atomic_add_fetch(&area->ready, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&area->go, __ATOMIC_SEQ_CST) == 0) Futex(&area->go, FUTEX_WAIT, 0);
  double t0 = NowNs();
  wrong += CallLoop(traps, kTrapMagic);
  double elapsed = NowNs() - t0;
  area->rate[index] = static_cast<double>(traps) * 1e9 / elapsed;
  area->wrong[index] = wrong;
  _exit(0);
}

// One run of `tasks` workers, one per CPU; appends their traps/s to *rates.
std::expected<void, std::string> ContentionRun(const std::vector<int>& cpus, int tasks,
                                               bool own_namespace, long traps,
                                               std::vector<double>* rates) {
  void* mem = mmap(nullptr, sizeof(ContentionArea), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return std::unexpected(std::string("mmap: ") + strerror(errno));
  auto* area = static_cast<ContentionArea*>(mem);
  std::vector<pid_t> pids;
  std::string error;
  for (int i = 0; i < tasks; ++i) {
    pid_t pid = fork();
    if (pid == 0) ContentionWorker(area, i, cpus[i], own_namespace, traps);
    if (pid < 0) {
      error = std::string("fork: ") + strerror(errno);
      break;
    }
    pids.push_back(pid);
  }
  // A worker that dies before it is ready would keep us here: give up after 10 minutes.
  for (long waited_ms = 0; error.empty() && __atomic_load_n(&area->ready, __ATOMIC_SEQ_CST) <
                                                static_cast<int>(pids.size());
       ++waited_ms) {
    if (waited_ms >= 600 * 1000) error = "workers not ready after 600 s";
    timespec pause = {0, 1000 * 1000};
    nanosleep(&pause, nullptr);
  }
  if (!error.empty()) {
    for (pid_t pid : pids) kill(pid, SIGKILL);
  }
  __atomic_store_n(&area->go, 1, __ATOMIC_SEQ_CST);
  Futex(&area->go, FUTEX_WAKE, kMaxTasks);
  for (size_t i = 0; i < pids.size(); ++i) {
    int status = 0;
    while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR) {
    }
    if (!error.empty()) continue;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      error = "worker " + std::to_string(i) + " failed" +
              (area->error[i][0] ? std::string(": ") + area->error[i]
                                 : " (status " + std::to_string(status) + ")");
    } else if (area->wrong[i] != 0) {
      error = "worker " + std::to_string(i) + ": " + std::to_string(area->wrong[i]) +
              " calls did not trap";
    } else {
      rates->push_back(area->rate[i]);
    }
  }
  munmap(mem, sizeof(ContentionArea));
  if (!error.empty()) return std::unexpected(error);
  return {};
}

CheckResult ContentionBody(const Settings& settings) {
  std::vector<int> cpus = AllowedCpus();
  int max_tasks = std::min(static_cast<int>(cpus.size()), kMaxTasks);
  std::string summary;
  for (bool sibling : {false, true}) {
    const char* mode = sibling ? "sibling-ns" : "same-ns";
    for (int tasks = 1; tasks <= max_tasks; ++tasks) {
      std::vector<double> rates;
      for (int rep = 0; rep < settings.reps; ++rep) {
        if (auto r = ContentionRun(cpus, tasks, sibling, settings.contention_traps, &rates); !r) {
          return {false, std::string(mode) + " x" + std::to_string(tasks) + ": " + r.error()};
        }
      }
      EmitResult("contention", mode,
                 "{\"mode\":" + JsonString(mode) + ",\"tasks\":" + std::to_string(tasks) + "}",
                 "traps/s", rates, 0);
      if (tasks == 1 || tasks == max_tasks) {
        summary += (summary.empty() ? "" : ", ") + std::string(mode) + " x" +
                   std::to_string(tasks) + " median " + JsonNumber(Median(rates), 0) + "/s";
      }
    }
  }
  return {true, std::to_string(settings.reps) + " runs x " +
                    std::to_string(settings.contention_traps) + " traps per process; " + summary};
}

}  // namespace

CheckResult RunDepthSweep(const Settings& settings) {
  return RunInChild([&] { return DepthSweepBody(settings); }, kChildTimeoutS);
}

CheckResult RunLadder(const Settings& settings) {
  return RunInChild([&] { return LadderBody(settings); }, kChildTimeoutS);
}

CheckResult RunContention(const Settings& settings) {
  return RunInChild([&] { return ContentionBody(settings); }, kChildTimeoutS);
}

}  // namespace snare::lab
