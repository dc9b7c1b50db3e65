// will-it-scale tests/signal1.c (the benchmark of seed 000, Chen Ridong's ucounts RFCs):
//
//   act.sa_handler = handler;  /* empty */
//   sigaction(SIGUSR1, &act, NULL);
//   while (1) { raise(SIGUSR1); (*iterations)++; }
//
// Every queued signal charges UCOUNT_RLIMIT_SIGPENDING at each user-namespace level, so
// tasks of one user contend on shared counters. will-it-scale pins one task per core and
// builds a process and a threads variant of each test.

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "bench/workloads/run_workload.h"
#include "bench/workloads/seed_workloads.h"
#include "bench/workloads/task_group.h"

namespace snare::bench {
namespace {

// Raising a signal costs about a microsecond: read the clock every 64 of them.
constexpr uint64_t kSignalsPerClockCheck = 64;

void EmptyHandler(int) {}

class Signal1Body : public TaskBody {
 public:
  std::optional<TaskFailure> Prepare() override {
    struct sigaction action = {};
    action.sa_handler = EmptyHandler;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, nullptr) != 0) return TaskFailure{"sigaction", errno};
    // The caller may block SIGUSR1; the task inherited its mask.
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    if (int error = pthread_sigmask(SIG_UNBLOCK, &usr1, nullptr)) {
      return TaskFailure{"pthread_sigmask", error};
    }
    return std::nullopt;
  }

  std::optional<TaskFailure> Run(uint64_t count) override {
    // raise() in both variants, as will-it-scale's signal1 does: glibc's raise() is
    // gettid + getpid + tgkill, so both variants make the same syscalls.
    for (uint64_t i = 0; i < count; ++i) {
      if (raise(SIGUSR1) != 0) return TaskFailure{"raise", errno};
    }
    return std::nullopt;
  }

 private:
};

}  // namespace

std::expected<WorkloadResult, std::string> RunSignal1(int tasks, bool threads, double seconds,
                                                      double warmup_seconds) {
  const WorkloadShape shape = {threads ? "signal1-threads" : "signal1",
                               threads ? TaskKind::kThread : TaskKind::kProcess, true,
                               kSignalsPerClockCheck};
  return RunWorkload<Signal1Body>(shape, tasks, seconds, warmup_seconds);
}

}  // namespace snare::bench
