// Runs one benchmark body in N tasks — forked processes, or threads of one forked
// process — starts them together, stops each by its own clock, and collects per-task
// operation counts. The harness behind the seed workloads (seed_workloads.h), modelled on
// will-it-scale's runner (main.c): pin one task per CPU, release all tasks at once through
// a pipe, count iterations per task.
//
// Protocol: the caller forks the tasks; each pins itself, runs TaskBody::Prepare, reports
// "ready" on a report pipe, and blocks in poll() on a start pipe; when every task is ready
// the caller closes the start pipe's write end (POLLHUP wakes all tasks at once). Each
// task warms up, measures, reports "done" with its count and window, and exits. The
// caller's state (signal handlers, mask, affinity) is not touched. Tasks die with the
// calling thread (PR_SET_PDEATHSIG) and are killed if they miss a deadline.
#ifndef SNARE_BENCH_WORKLOADS_TASK_GROUP_H_
#define SNARE_BENCH_WORKLOADS_TASK_GROUP_H_

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snare::bench {

// Why a task stopped: the call that failed (a string literal, so it needs no allocation)
// and its errno, or 0 when the failure is not an errno (e.g. an unexpected wait status).
struct TaskFailure {
  const char* call;
  int error;
};

// What one task runs; each task gets its own body. The methods run inside the task: in a
// forked child of a process that may have had other threads, so they must not allocate,
// take locks that another thread could have held at fork, print, or throw.
class TaskBody {
 public:
  virtual ~TaskBody() = default;
  // Per-task setup, after pinning and before the start barrier.
  virtual std::optional<TaskFailure> Prepare() { return std::nullopt; }
  // Performs `count` operations.
  virtual std::optional<TaskFailure> Run(uint64_t count) = 0;
};

enum class TaskKind {
  kProcess,  // each task is a forked child of the caller
  kThread,   // the tasks are threads of one forked child of the caller
};

struct TaskGroupOptions {
  std::string name;  // prefixes error messages, e.g. "signal1"
  TaskKind kind = TaskKind::kProcess;
  // Pin task i to the i-th (mod n) CPU of the caller's affinity mask (the online CPUs
  // unless the caller is restricted), as will-it-scale does.
  bool pin = true;
  double warmup_seconds = 0;
  double seconds = 1;
  // Run() is called with this count between clock reads; raise it for operations of
  // well under a microsecond so that reading the clock stays out of the measurement.
  uint64_t ops_per_clock_check = 1;
  // How long the tasks may take to become ready, and to finish after warmup + seconds,
  // before they are killed and the run fails.
  double ready_timeout_seconds = 30;
  double finish_slack_seconds = 30;
};

struct TaskMeasurement {
  uint64_t ops = 0;
  double seconds = 0;  // the window the task measured (>= TaskGroupOptions::seconds)
};

struct TaskGroupResult {
  std::vector<TaskMeasurement> tasks;  // in task order

  std::vector<double> OpsPerSecond() const;
  double LongestSeconds() const;
};

inline constexpr int kMaxTasks = 1024;  // will-it-scale's MAX_TASKS
inline constexpr double kMaxTaskSeconds = 86400;

// Checks the arguments every workload takes: tasks in 1..kMaxTasks, seconds in
// (0, kMaxTaskSeconds], warmup_seconds in [0, kMaxTaskSeconds]. The message names the
// bad argument, its value and the allowed range.
std::expected<void, std::string> CheckWorkloadArgs(int tasks, double seconds,
                                                   double warmup_seconds);

// Runs bodies.size() tasks, task i running *bodies[i]. Checks options.seconds and
// options.warmup_seconds like CheckWorkloadArgs. Blocks until every task has reported and
// been reaped; on any failure kills and reaps the remaining tasks before returning.
std::expected<TaskGroupResult, std::string> RunTaskGroup(const TaskGroupOptions& options,
                                                         std::span<TaskBody* const> bodies);

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOADS_TASK_GROUP_H_
