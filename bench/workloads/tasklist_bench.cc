// Barret Rhoden's tasklist_lock microbenchmark (seed 003: "prlimit and set/getpriority
// tasklist_lock optimizations", merged for v5.18; 28% faster with the patches). The seed,
// verbatim in its loop:
//
//   fork(); fork(); fork(); fork(); fork(); fork();   /* 64 processes */
//   for (int i = 0; i < 5000; i++) {
//     child = fork();
//     if (child < 0) exit(1);
//     if (child > 0) {
//       usleep(1000);
//       kill(child, SIGTERM);
//       waitpid(child, NULL, 0);
//     } else {
//       for (;;) {
//         setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0));
//         getrlimit(RLIMIT_CPU, rlim);
//       }
//     }
//   }
//
// Here `tasks` processes replace the 64 from the six fork()s, the loop runs for a time
// instead of 5000 cycles, and the tasks are not pinned (the seed does not pin). Parents
// fork/kill/wait (write-locking tasklist_lock) while children hammer get/setpriority and
// getrlimit (which read-locked it before the patches).
//
// Differences from the seed, for robustness inside any caller: the task resets SIGTERM and
// SIGCHLD to their defaults and unblocks SIGTERM (so that the child dies of the SIGTERM and
// waitpid reaps it whatever the caller set), and each child first makes itself die with
// its parent (PR_SET_PDEATHSIG + a getppid() check: two syscalls per ~1 ms of spinning), so
// that a killed task leaves no spinner behind. The child's wait status is checked.

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "bench/workloads/run_workload.h"
#include "bench/workloads/seed_workloads.h"
#include "bench/workloads/task_group.h"

namespace snare::bench {
namespace {

// How long the parent lets its child spin before killing it (the seed's usleep(1000)).
constexpr useconds_t kChildSpinMicros = 1000;

// The seed's child. Never returns: it is killed by its parent.
[[noreturn]] void SpinUntilKilled(pid_t parent) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(1);
  rlimit rlim;
  for (;;) {
    setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0));
    getrlimit(RLIMIT_CPU, &rlim);
  }
}

class TasklistBody : public TaskBody {
 public:
  std::optional<TaskFailure> Prepare() override {
    struct sigaction action = {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGTERM, &action, nullptr) != 0 || sigaction(SIGCHLD, &action, nullptr) != 0) {
      return TaskFailure{"sigaction", errno};
    }
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    if (sigprocmask(SIG_UNBLOCK, &term, nullptr) != 0) return TaskFailure{"sigprocmask", errno};
    self_ = getpid();
    return std::nullopt;
  }

  std::optional<TaskFailure> Run(uint64_t count) override {
    for (uint64_t i = 0; i < count; ++i) {
      const pid_t child = fork();
      if (child < 0) return TaskFailure{"fork", errno};
      if (child == 0) SpinUntilKilled(self_);
      usleep(kChildSpinMicros);
      if (kill(child, SIGTERM) != 0) {
        const int error = errno;
        kill(child, SIGKILL);
        Reap(child);
        return TaskFailure{"kill", error};
      }
      int status = 0;
      if (!Reap(child, &status)) return TaskFailure{"waitpid", errno};
      if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM) {
        return TaskFailure{"waitpid: the child did not die of SIGTERM", 0};
      }
    }
    return std::nullopt;
  }

 private:
  static bool Reap(pid_t child, int* status = nullptr) {
    pid_t reaped;
    do {
      reaped = waitpid(child, status, 0);
    } while (reaped < 0 && errno == EINTR);
    return reaped == child;
  }

  pid_t self_ = 0;
};

}  // namespace

std::expected<WorkloadResult, std::string> RunTasklistBench(int tasks, double seconds,
                                                            double warmup_seconds) {
  return RunWorkload<TasklistBody>({"tasklist", TaskKind::kProcess, /*pin=*/false, 1}, tasks,
                                   seconds, warmup_seconds);
}

}  // namespace snare::bench
