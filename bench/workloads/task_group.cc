#include "bench/workloads/task_group.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "util/allowed_cpus.h"
#include "util/monotonic_clock.h"

namespace snare::bench {
namespace {

enum class ReportKind : int32_t { kReady = 1, kDone = 2, kFailed = 3 };

// One message from a task to the caller. Each is sent with a single write() of at most
// PIPE_BUF bytes, so reports from concurrent tasks never interleave.
struct Report {
  int32_t task = 0;
  ReportKind kind = ReportKind::kReady;
  int32_t error = 0;   // kFailed: errno, or 0
  uint64_t ops = 0;    // kDone
  double seconds = 0;  // kDone
  char call[48] = {};  // kFailed: the call that failed
};
static_assert(sizeof(Report) <= PIPE_BUF);

using util::MonotonicSeconds;

std::string FormatSeconds(double seconds) {
  char text[32];
  snprintf(text, sizeof(text), "%g", seconds);
  return text;
}

std::string ErrnoText(int error) {
  return std::string(strerrorname_np(error) ? strerrorname_np(error) : "?") + " (" +
         strerror(error) + ")";
}

// ---- The task side. Runs in forked children: no allocation, no stdio, no exceptions.

// Everything one task needs, prepared by the caller before it forks.
struct TaskContext {
  int index = 0;
  TaskBody* body = nullptr;
  const cpu_set_t* cpu_mask = nullptr;  // null: not pinned
  size_t cpu_mask_size = 0;
  int start_fd = -1;   // read end of the start pipe
  int report_fd = -1;  // write end of the report pipe
  double warmup_seconds = 0;
  double seconds = 0;
  uint64_t ops_per_clock_check = 1;
};

void SendReport(int fd, const Report& report) {
  while (write(fd, &report, sizeof(report)) < 0 && errno == EINTR) {
  }
}

// Reports the failure; returns false for the caller to return.
bool ReportFailure(const TaskContext& context, TaskFailure failure) {
  Report report;
  report.task = context.index;
  report.kind = ReportKind::kFailed;
  report.error = failure.error;
  const char* call = failure.call != nullptr ? failure.call : "?";
  for (size_t i = 0; i + 1 < sizeof(report.call) && call[i] != '\0'; ++i) {
    report.call[i] = call[i];
  }
  SendReport(context.report_fd, report);
  return false;
}

// Pins, prepares, waits for the start, warms up, measures and reports. Returns whether
// the task succeeded; it has reported either way.
bool RunTask(const TaskContext& context) {
  if (context.cpu_mask != nullptr &&
      sched_setaffinity(0, context.cpu_mask_size, context.cpu_mask) != 0) {
    return ReportFailure(context, {"sched_setaffinity", errno});
  }
  if (std::optional<TaskFailure> failure = context.body->Prepare()) {
    return ReportFailure(context, *failure);
  }
  Report ready;
  ready.task = context.index;
  ready.kind = ReportKind::kReady;
  SendReport(context.report_fd, ready);

  // The caller starts everyone at once by closing the start pipe's write end.
  pollfd start = {context.start_fd, POLLIN, 0};
  while (poll(&start, 1, -1) < 0) {
    if (errno != EINTR) return ReportFailure(context, {"poll", errno});
  }

  const uint64_t batch = context.ops_per_clock_check;
  double now = MonotonicSeconds();
  if (context.warmup_seconds > 0) {
    const double warmup_end = now + context.warmup_seconds;
    do {
      if (std::optional<TaskFailure> failure = context.body->Run(batch)) {
        return ReportFailure(context, *failure);
      }
      now = MonotonicSeconds();
    } while (now < warmup_end);
  }
  const double begin = now;
  const double end = begin + context.seconds;
  uint64_t ops = 0;
  do {
    if (std::optional<TaskFailure> failure = context.body->Run(batch)) {
      return ReportFailure(context, *failure);
    }
    ops += batch;
    now = MonotonicSeconds();
  } while (now < end);

  Report done;
  done.task = context.index;
  done.kind = ReportKind::kDone;
  done.ops = ops;
  done.seconds = now - begin;
  SendReport(context.report_fd, done);
  return true;
}

// First steps of every forked child: drop the caller's pipe ends, and die with the
// calling thread (checking it did not die before the request took effect).
void BecomeTaskProcess(pid_t caller, int start_write_fd, int report_read_fd) {
  close(start_write_fd);
  close(report_read_fd);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != caller) _exit(1);
}

void* TaskThreadMain(void* context) {
  return RunTask(*static_cast<const TaskContext*>(context)) ? nullptr : context;
}

// The one child of a TaskKind::kThread group: runs each task in a thread of its own.
[[noreturn]] void ThreadHostMain(std::span<const TaskContext> contexts, pthread_t* threads) {
  size_t started = 0;
  bool ok = true;
  for (; started < contexts.size(); ++started) {
    void* context = const_cast<TaskContext*>(&contexts[started]);
    if (int error = pthread_create(&threads[started], nullptr, TaskThreadMain, context)) {
      ok = ReportFailure(contexts[started], {"pthread_create", error});
      break;  // the caller kills this process when it reads the failure
    }
  }
  for (size_t i = 0; i < started; ++i) {
    void* failed = nullptr;
    pthread_join(threads[i], &failed);
    if (failed != nullptr) ok = false;
  }
  _exit(ok ? 0 : 1);
}

// ---- The caller side.

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    Reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  ~UniqueFd() { Reset(); }
  int get() const { return fd_; }
  void Reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

std::expected<std::pair<UniqueFd, UniqueFd>, std::string> MakePipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::unexpected("pipe2: " + ErrnoText(errno));
  return std::pair(UniqueFd(fds[0]), UniqueFd(fds[1]));
}

struct CpuSetFree {
  void operator()(cpu_set_t* set) const { CPU_FREE(set); }
};
using CpuSetPtr = std::unique_ptr<cpu_set_t, CpuSetFree>;

struct CpuMask {
  CpuSetPtr set;
  size_t size = 0;
};

std::expected<CpuMask, std::string> MaskOf(int cpu) {
  CpuMask mask;
  mask.set.reset(CPU_ALLOC(cpu + 1));
  if (mask.set == nullptr) return std::unexpected("CPU_ALLOC: " + ErrnoText(errno));
  mask.size = CPU_ALLOC_SIZE(cpu + 1);
  CPU_ZERO_S(mask.size, mask.set.get());
  CPU_SET_S(cpu, mask.size, mask.set.get());
  return mask;
}

std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) +
           (name ? std::string(" (SIG") + name + ")" : "");
  }
  return "wait status " + std::to_string(status);
}

// The children of one run. Whatever is still unreaped when it goes away is killed and
// reaped, so no error path leaves a task behind.
class Children {
 public:
  Children() = default;
  Children(const Children&) = delete;
  Children& operator=(const Children&) = delete;
  ~Children() { KillAndReap(); }

  void Add(pid_t pid) { pids_.push_back(pid); }

  // Kills every child and reaps it; returns how each one that had died on its own ended.
  std::vector<std::string> KillAndReap() {
    std::vector<std::string> ended;
    for (pid_t pid : pids_) {
      int status = 0;
      pid_t reaped = WaitFor(pid, &status, WNOHANG);
      if (reaped == pid && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
        ended.push_back("process " + std::to_string(pid) + " " + DescribeStatus(status));
      }
      if (reaped == 0) {
        kill(pid, SIGKILL);
        WaitFor(pid, &status, 0);
      }
    }
    pids_.clear();
    return ended;
  }

  // Reaps every child; returns how each one that did not exit with status 0 ended.
  std::vector<std::string> Reap() {
    std::vector<std::string> failed;
    for (pid_t pid : pids_) {
      int status = 0;
      // ECHILD: someone else reaped it (e.g. the caller ignores SIGCHLD); it had reported.
      if (WaitFor(pid, &status, 0) == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        failed.push_back("process " + std::to_string(pid) + " " + DescribeStatus(status));
      }
    }
    pids_.clear();
    return failed;
  }

 private:
  static pid_t WaitFor(pid_t pid, int* status, int flags) {
    pid_t reaped;
    do {
      reaped = waitpid(pid, status, flags);
    } while (reaped < 0 && errno == EINTR);
    return reaped;
  }

  std::vector<pid_t> pids_;
};

std::string Join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : "; ") + part;
  return joined;
}

// Why ReportReader::WaitFor stopped early.
struct ReadFailure {
  std::string message;
  bool tasks_exited = false;   // every task has closed the pipe: they are all exiting
  bool task_reported = false;  // a task reported its own failure: the message is complete
};

// Reads reports from the tasks until `want` tasks have sent one of `kind` (recorded in
// `seen`, with kDone measurements in `measurements`), a task reports a failure, every task
// has closed the pipe, or `deadline` passes.
class ReportReader {
 public:
  ReportReader(int fd, size_t tasks) : fd_(fd), ready_(tasks, false), done_(tasks, false) {}

  std::expected<void, ReadFailure> WaitFor(ReportKind kind, double deadline,
                                           std::vector<TaskMeasurement>* measurements) {
    const auto failure = [](std::string message, bool tasks_exited = false,
                            bool task_reported = false) {
      return std::unexpected(ReadFailure{std::move(message), tasks_exited, task_reported});
    };
    std::vector<bool>& seen = kind == ReportKind::kReady ? ready_ : done_;
    const auto missing = [&] {
      return static_cast<size_t>(std::count(seen.begin(), seen.end(), false));
    };
    while (missing() > 0) {
      const double left = deadline - MonotonicSeconds();
      if (left <= 0) return failure(DescribeMissing(kind, seen, "timed out"));
      pollfd readable = {fd_, POLLIN, 0};
      const int timeout_ms = static_cast<int>(std::min(std::ceil(left * 1000), 1e9));
      const int polled = poll(&readable, 1, timeout_ms);
      if (polled < 0 && errno != EINTR) return failure("poll: " + ErrnoText(errno));
      if (polled <= 0) continue;
      char buffer[64 * sizeof(Report)];
      const ssize_t got = read(fd_, buffer, sizeof(buffer));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return failure("read: " + ErrnoText(errno));
      if (got == 0) return failure(DescribeMissing(kind, seen, "exited"), true);
      pending_.append(buffer, static_cast<size_t>(got));
      size_t used = 0;
      for (; pending_.size() - used >= sizeof(Report); used += sizeof(Report)) {
        Report report;
        memcpy(&report, pending_.data() + used, sizeof(report));
        if (report.task < 0 || static_cast<size_t>(report.task) >= seen.size()) {
          return failure("a report names task " + std::to_string(report.task) +
                         ", which does not exist");
        }
        switch (report.kind) {
          case ReportKind::kFailed: {
            std::string call(report.call, strnlen(report.call, sizeof(report.call)));
            return failure("task " + std::to_string(report.task) + ": " + call +
                               (report.error != 0 ? ": " + ErrnoText(report.error) : ""),
                           /*tasks_exited=*/false, /*task_reported=*/true);
          }
          case ReportKind::kReady:
            ready_[report.task] = true;
            break;
          case ReportKind::kDone:
            done_[report.task] = true;
            (*measurements)[report.task] = {report.ops, report.seconds};
            break;
          default:
            return failure("a report of unknown kind " +
                           std::to_string(static_cast<int>(report.kind)));
        }
      }
      pending_.erase(0, used);
    }
    return {};
  }

 private:
  static std::string DescribeMissing(ReportKind kind, const std::vector<bool>& seen,
                                     const char* what) {
    std::string tasks;
    size_t missing = 0;
    for (size_t i = 0; i < seen.size(); ++i) {
      if (seen[i]) continue;
      if (++missing <= 8) tasks += (tasks.empty() ? "" : ", ") + std::to_string(i);
    }
    if (missing > 8) tasks += ", ...";
    return std::to_string(missing) + " of " + std::to_string(seen.size()) + " tasks (" + tasks +
           ") " + what + " before reporting " + (kind == ReportKind::kReady ? "ready" : "done");
  }

  int fd_;
  std::vector<bool> ready_;
  std::vector<bool> done_;
  std::string pending_;
};

}  // namespace

std::vector<double> TaskGroupResult::OpsPerSecond() const {
  std::vector<double> rates;
  rates.reserve(tasks.size());
  for (const TaskMeasurement& task : tasks) {
    rates.push_back(task.seconds > 0 ? static_cast<double>(task.ops) / task.seconds : 0);
  }
  return rates;
}

double TaskGroupResult::LongestSeconds() const {
  double longest = 0;
  for (const TaskMeasurement& task : tasks) longest = std::max(longest, task.seconds);
  return longest;
}

std::expected<void, std::string> CheckWorkloadArgs(int tasks, double seconds,
                                                   double warmup_seconds) {
  const std::string max_seconds = FormatSeconds(kMaxTaskSeconds);
  if (tasks < 1 || tasks > kMaxTasks) {
    return std::unexpected("tasks must be in 1.." + std::to_string(kMaxTasks) + ", got " +
                           std::to_string(tasks));
  }
  if (!(seconds > 0 && seconds <= kMaxTaskSeconds)) {
    return std::unexpected("seconds must be in (0, " + max_seconds + "], got " +
                           FormatSeconds(seconds));
  }
  if (!(warmup_seconds >= 0 && warmup_seconds <= kMaxTaskSeconds)) {
    return std::unexpected("warmup_seconds must be in [0, " + max_seconds + "], got " +
                           FormatSeconds(warmup_seconds));
  }
  return {};
}

std::expected<TaskGroupResult, std::string> RunTaskGroup(const TaskGroupOptions& options,
                                                         std::span<TaskBody* const> bodies) {
  const std::string prefix = options.name.empty() ? "" : options.name + ": ";
  const auto fail = [&](const std::string& message) { return std::unexpected(prefix + message); };
  const int tasks = bodies.size() > static_cast<size_t>(kMaxTasks)
                        ? kMaxTasks + 1
                        : static_cast<int>(bodies.size());
  if (auto checked = CheckWorkloadArgs(tasks, options.seconds, options.warmup_seconds); !checked) {
    return fail(checked.error());
  }
  if (std::find(bodies.begin(), bodies.end(), nullptr) != bodies.end()) {
    return fail("a task has no body");
  }

  // Everything the children use is made before the first fork.
  std::vector<CpuMask> masks;
  if (options.pin) {
    std::expected<std::vector<int>, std::string> cpus = util::AllowedCpus();
    if (!cpus) return fail(cpus.error());
    for (int i = 0; i < tasks; ++i) {
      std::expected<CpuMask, std::string> mask = MaskOf((*cpus)[i % cpus->size()]);
      if (!mask) return fail(mask.error());
      masks.push_back(std::move(*mask));
    }
  }
  auto start_pipe = MakePipe();
  if (!start_pipe) return fail(start_pipe.error());
  auto report_pipe = MakePipe();
  if (!report_pipe) return fail(report_pipe.error());
  auto& [start_read, start_write] = *start_pipe;
  auto& [report_read, report_write] = *report_pipe;

  std::vector<TaskContext> contexts(tasks);
  for (int i = 0; i < tasks; ++i) {
    TaskContext& context = contexts[i];
    context.index = i;
    context.body = bodies[i];
    if (options.pin) {
      context.cpu_mask = masks[i].set.get();
      context.cpu_mask_size = masks[i].size;
    }
    context.start_fd = start_read.get();
    context.report_fd = report_write.get();
    context.warmup_seconds = options.warmup_seconds;
    context.seconds = options.seconds;
    context.ops_per_clock_check = std::max<uint64_t>(options.ops_per_clock_check, 1);
  }
  std::vector<pthread_t> threads(options.kind == TaskKind::kThread ? tasks : 0);

  const pid_t caller = getpid();
  Children children;
  const int processes = options.kind == TaskKind::kThread ? 1 : tasks;
  for (int i = 0; i < processes; ++i) {
    const pid_t pid = fork();
    if (pid < 0) {
      const int error = errno;
      return fail("fork of task " + std::to_string(i) + ": " + ErrnoText(error));
    }
    if (pid == 0) {
      BecomeTaskProcess(caller, start_write.get(), report_read.get());
      if (options.kind == TaskKind::kThread) ThreadHostMain(contexts, threads.data());
      _exit(RunTask(contexts[i]) ? 0 : 1);
    }
    children.Add(pid);
  }
  start_read.Reset();
  report_write.Reset();

  ReportReader reader(report_read.get(), tasks);
  TaskGroupResult result;
  result.tasks.resize(tasks);
  // On failure, adds how the children that had died on their own ended (unless a task
  // reported the failure itself, when its exit is expected noise). Once every task
  // has closed the report pipe they are all exiting: wait for them rather than kill them,
  // so that their real exit statuses are seen.
  const auto abort = [&](const ReadFailure& failure) {
    std::vector<std::string> ended =
        failure.tasks_exited ? children.Reap() : children.KillAndReap();
    if (failure.task_reported) return fail(failure.message);
    return fail(failure.message + (ended.empty() ? "" : " [" + Join(ended) + "]"));
  };
  if (auto ready = reader.WaitFor(
          ReportKind::kReady, MonotonicSeconds() + options.ready_timeout_seconds, &result.tasks);
      !ready) {
    return abort(ready.error());
  }
  start_write.Reset();  // go
  const double deadline =
      MonotonicSeconds() + options.warmup_seconds + options.seconds + options.finish_slack_seconds;
  if (auto done = reader.WaitFor(ReportKind::kDone, deadline, &result.tasks); !done) {
    return abort(done.error());
  }
  if (std::vector<std::string> failed = children.Reap(); !failed.empty()) {
    return fail("tasks reported but then failed: " + Join(failed));
  }
  return result;
}

}  // namespace snare::bench
