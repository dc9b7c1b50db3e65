#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "util/path_search.h"

extern char** environ;

namespace snare::util {
namespace {

using Clock = std::chrono::steady_clock;

int ShellStatus(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

// The caller's environment with `extra` entries added or replacing same-named ones.
std::vector<std::string> MergedEnvironment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& x : extra) {
      if (x.substr(0, x.find('=')) == name) replaced = true;
    }
    if (!replaced) env.push_back(std::move(entry));
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// What the child does between fork() and exec, prepared by the parent (the child may only
// make async-signal-safe calls).
struct ChildSetup {
  const char* file;
  char* const* argv;
  char* const* envp;
  const char* cwd;
  const char* tty;  // "" unless options.controlling_tty
  int cpu;
  bool set_uid, set_gid;
  uid_t uid;
  gid_t gid;
  int in_fd, out_fd, err_fd;  // in_fd is -1 with a controlling tty
  int error_fd;
};

// What the child reports through the error pipe when it cannot get to exec.
enum class ChildStage : int { kExec, kSetsid, kOpenTty, kSetCtty, kSetgroups, kSetgid, kSetuid };

struct ChildError {
  ChildStage stage;
  int err;
};

std::string DescribeChildError(const std::string& program, const ChildError& e,
                               const SubprocessOptions& options) {
  std::string what;
  switch (e.stage) {
    case ChildStage::kExec:
      return "cannot run " + program + ": " + strerror(e.err);
    case ChildStage::kSetsid:
      what = "setsid()";
      break;
    case ChildStage::kOpenTty:
      what = "open(" + options.controlling_tty + ")";
      break;
    case ChildStage::kSetCtty:
      what = "ioctl(" + options.controlling_tty + ", TIOCSCTTY)";
      break;
    case ChildStage::kSetgroups:
      what = "setgroups(0)";
      break;
    case ChildStage::kSetgid:
      what = "setresgid(" + std::to_string(options.gid.value_or(0)) + ")";
      break;
    case ChildStage::kSetuid:
      what = "setresuid(" + std::to_string(options.uid.value_or(0)) + ")";
      break;
  }
  return "cannot start " + program + ": " + what + ": " + strerror(e.err);
}

// Child side after fork(): only async-signal-safe calls (raw syscalls for the credentials:
// glibc's set*id would signal threads this child does not have). Reports why it could not
// exec through error_fd and exits 127.
[[noreturn]] void ExecChild(const ChildSetup& c) {
  ChildError failure = {ChildStage::kExec, 0};
  auto fail = [&failure](ChildStage stage) {
    if (!failure.err) failure = {stage, errno};
  };
  if (c.tty[0]) {
    if (setsid() < 0) fail(ChildStage::kSetsid);
  } else {
    setpgid(0, 0);
  }
  if (c.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(c.cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
  }
  // The raw syscall, because glibc's sigaction() refuses its internal signals (32, 33),
  // which the caller may have inherited as ignored.
  struct KernelSigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)();
    uint64_t mask;
  } dfl = {SIG_DFL, 0, nullptr, 0};
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) syscall(SYS_rt_sigaction, sig, &dfl, nullptr, 8);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  int in_fd = c.in_fd;
  if (c.tty[0] && !failure.err) {
    // Above 2 (0-2 are replaced below), like the pipe fds.
    int tty_fd = open(c.tty, O_RDWR);
    if (tty_fd >= 0 && tty_fd <= 2) tty_fd = fcntl(tty_fd, F_DUPFD_CLOEXEC, 3);
    if (tty_fd < 0) {
      fail(ChildStage::kOpenTty);
    } else if (ioctl(tty_fd, TIOCSCTTY, 0) < 0) {
      fail(ChildStage::kSetCtty);
    }
    in_fd = tty_fd;
  }
  int report_fd = c.error_fd;
  if (!failure.err && (dup2(in_fd, 0) < 0 || dup2(c.out_fd, 1) < 0 || dup2(c.err_fd, 2) < 0)) {
    fail(ChildStage::kExec);
  }
  // Move the error pipe to fd 3 (pipe fds are all above 2, and 0-2 are now set up) and close
  // every other inherited descriptor, so that native and snare runs see the same fds.
  if (!failure.err && report_fd != 3) {
    if (dup3(report_fd, 3, O_CLOEXEC) < 0) {
      fail(ChildStage::kExec);
    } else {
      report_fd = 3;
    }
  }
  if (!failure.err) syscall(SYS_close_range, 4, ~0U, 0);
  if (!failure.err && (c.set_uid || c.set_gid) && syscall(SYS_setgroups, 0, nullptr) != 0) {
    fail(ChildStage::kSetgroups);
  }
  if (!failure.err && c.set_gid && syscall(SYS_setresgid, c.gid, c.gid, c.gid) != 0) {
    fail(ChildStage::kSetgid);
  }
  if (!failure.err && c.set_uid && syscall(SYS_setresuid, c.uid, c.uid, c.uid) != 0) {
    fail(ChildStage::kSetuid);
  }
  if (!failure.err && c.cwd[0] && chdir(c.cwd) != 0) fail(ChildStage::kExec);
  if (!failure.err) {
    execve(c.file, c.argv, c.envp);
    fail(ChildStage::kExec);
  }
  ssize_t ignored = write(report_fd, &failure, sizeof(failure));
  (void)ignored;
  _exit(127);
}

void SetNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::string SubprocessResult::Describe() const {
  std::string s;
  if (!start_error.empty()) s += "start error: " + start_error + "\n";
  s += "status: " + std::to_string(status);
  if (status > 128) s += " (signal " + std::to_string(status - 128) + ")";
  if (timed_out) s += " TIMED OUT (process group killed)";
  if (output_held_open) s += " (stdout/stderr still held open by a leftover process)";
  s += "\n--- stdout (" + std::to_string(stdout_data.size()) + " bytes) ---\n";
  s += stdout_data.size() > 4000 ? stdout_data.substr(0, 4000) + "\n[...]" : stdout_data;
  s += "\n--- stderr (" + std::to_string(stderr_data.size()) + " bytes) ---\n";
  s += stderr_data.size() > 4000 ? stderr_data.substr(0, 4000) + "\n[...]" : stderr_data;
  s += "\n---\n";
  return s;
}

Subprocess::~Subprocess() {
  if (pid_ > 0 && !reaped_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  CloseFds();
}

void Subprocess::CloseFds() {
  for (int* fd : {&stdin_fd_, &stdout_fd_, &stderr_fd_, &pidfd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
}

bool Subprocess::Start(const std::vector<std::string>& argv, const SubprocessOptions& options) {
  options_ = options;
  result_ = SubprocessResult();
  // A child that exits without reading all of its stdin must not kill the caller with
  // SIGPIPE; the child itself gets the default disposition back before exec.
  signal(SIGPIPE, SIG_IGN);
  if (argv.empty()) {
    result_.start_error = "empty argv";
    return false;
  }
  std::string file = argv[0];
  if (file.find('/') == std::string::npos) {
    const char* path = getenv("PATH");
    auto found = FindExecutable(file, path ? path : kDefaultPath);
    if (!found) {
      result_.start_error = "cannot run " + argv[0] + ": " + strerror(ENOENT) + " (not in $PATH)";
      return false;
    }
    file = *found;
  }
  std::vector<std::string> args = argv;
  std::vector<std::string> env = MergedEnvironment(options.extra_env);
  std::vector<char*> c_args = CStrings(args);
  std::vector<char*> c_env = CStrings(env);

  int in[2] = {-1, -1}, out[2], err[2] = {-1, -1}, error[2];
  const bool tty = !options.controlling_tty.empty();
  const bool have_stdin = !tty && options.stdin_data.has_value();
  bool stdin_failed = false;
  if (have_stdin) {
    stdin_failed = pipe2(in, O_CLOEXEC) != 0;
  } else if (!tty) {  // a terminal is opened by the child
    stdin_failed = (in[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0;
  }
  if (stdin_failed) {
    result_.start_error = std::string("stdin: ") + strerror(errno);
    return false;
  }
  if (pipe2(out, O_CLOEXEC) != 0 || (!options.merge_stderr && pipe2(err, O_CLOEXEC) != 0) ||
      pipe2(error, O_CLOEXEC) != 0) {
    result_.start_error = std::string("pipe: ") + strerror(errno);
    return false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    result_.start_error = std::string("fork: ") + strerror(errno);
    return false;
  }
  if (pid == 0) {
    ExecChild({.file = file.c_str(),
               .argv = c_args.data(),
               .envp = c_env.data(),
               .cwd = options.cwd.c_str(),
               .tty = options.controlling_tty.c_str(),
               .cpu = options.cpu,
               .set_uid = options.uid.has_value(),
               .set_gid = options.gid.has_value(),
               .uid = options.uid.value_or(0),
               .gid = options.gid.value_or(0),
               .in_fd = in[0],
               .out_fd = out[1],
               .err_fd = options.merge_stderr ? out[1] : err[1],
               .error_fd = error[1]});
  }
  pid_ = pid;
  // Also from the parent, so that killing the group cannot race with the child's setpgid.
  // Not for a new session: setsid() fails in a process that already leads a group (Start
  // returns only after the child's exec, by when its setsid() has made it a group leader).
  if (!tty) setpgid(pid, pid);
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (in[0] >= 0) close(in[0]);
  close(out[1]);
  if (err[1] >= 0) close(err[1]);
  close(error[1]);
  stdin_fd_ = have_stdin ? in[1] : -1;
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];

  ChildError child_error;
  ssize_t n;
  while ((n = read(error[0], &child_error, sizeof(child_error))) < 0 && errno == EINTR) {
  }
  close(error[0]);
  if (n == sizeof(child_error)) {
    result_.start_error = DescribeChildError(argv[0], child_error, options);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    CloseFds();
    return false;
  }
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_}) {
    if (fd >= 0) SetNonBlocking(fd);
  }
  return true;
}

void Subprocess::TakeStdout(const char* data, size_t n) {
  if (options_.keep_stdout) result_.stdout_data.append(data, n);
  if (!options_.on_line) return;
  partial_line_.append(data, n);
  size_t start = 0, nl;
  while ((nl = partial_line_.find('\n', start)) != std::string::npos) {
    std::string line = partial_line_.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    options_.on_line(line);
    start = nl + 1;
  }
  partial_line_.erase(0, start);
}

bool Subprocess::Reap(int options) {
  int wait_status;
  pid_t r;
  while ((r = waitpid(pid_, &wait_status, options)) < 0 && errno == EINTR) {
  }
  if (r != pid_) return false;
  reaped_ = true;
  result_.status = ShellStatus(wait_status);
  return true;
}

SubprocessResult Subprocess::Wait() {
  if (pid_ <= 0 || reaped_) {
    CloseFds();
    return result_;
  }
  const bool limited = options_.timeout.count() > 0;
  const Clock::time_point deadline = Clock::now() + options_.timeout;
  std::optional<Clock::time_point> exited_at;
  size_t stdin_written = 0;
  const std::string stdin_data = options_.stdin_data.value_or("");
  if (stdin_fd_ >= 0 && stdin_data.empty()) {
    close(stdin_fd_);
    stdin_fd_ = -1;
  }

  for (;;) {
    if (!reaped_ && Reap(WNOHANG)) exited_at = Clock::now();
    if (reaped_ && stdout_fd_ < 0 && stderr_fd_ < 0) break;
    if (exited_at && Clock::now() - *exited_at > options_.drain_after_exit) {
      result_.output_held_open = true;
      break;
    }
    if (!reaped_ && limited && Clock::now() > deadline) {
      result_.timed_out = true;
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      Reap(0);
      exited_at = Clock::now();
      options_.drain_after_exit = std::chrono::milliseconds(200);
    }

    // Sleep until output, room for stdin, the child's exit (its pidfd), or the next limit.
    pollfd fds[4];
    int nfds = 0;
    if (stdin_fd_ >= 0) fds[nfds++] = {stdin_fd_, POLLOUT, 0};
    if (stdout_fd_ >= 0) fds[nfds++] = {stdout_fd_, POLLIN, 0};
    if (stderr_fd_ >= 0) fds[nfds++] = {stderr_fd_, POLLIN, 0};
    if (!reaped_ && pidfd_ >= 0) fds[nfds++] = {pidfd_, POLLIN, 0};
    Clock::time_point wake = Clock::time_point::max();
    if (!reaped_ && limited) wake = deadline;
    if (exited_at) wake = *exited_at + options_.drain_after_exit;
    if (!reaped_ && pidfd_ < 0) wake = std::min(wake, Clock::now() + std::chrono::milliseconds(10));
    int timeout_ms = -1;
    if (wake != Clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now());
      timeout_ms = static_cast<int>(std::max<int64_t>(0, left.count()) + 1);
    }
    if (poll(fds, nfds, timeout_ms) <= 0) continue;
    for (int i = 0; i < nfds; ++i) {
      if (!fds[i].revents || fds[i].fd == pidfd_) continue;
      if (fds[i].fd == stdin_fd_) {
        ssize_t w =
            write(stdin_fd_, stdin_data.data() + stdin_written, stdin_data.size() - stdin_written);
        if (w > 0) stdin_written += w;
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || stdin_written == stdin_data.size()) {
          close(stdin_fd_);
          stdin_fd_ = -1;
        }
        continue;
      }
      const bool is_stdout = fds[i].fd == stdout_fd_;
      int& fd = is_stdout ? stdout_fd_ : stderr_fd_;
      char buf[65536];
      ssize_t r = read(fd, buf, sizeof(buf));
      if (r > 0) {
        if (is_stdout) {
          TakeStdout(buf, static_cast<size_t>(r));
        } else {
          result_.stderr_data.append(buf, static_cast<size_t>(r));
        }
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(fd);
        fd = -1;
      }
    }
  }
  if (options_.on_line && !partial_line_.empty()) options_.on_line(partial_line_);
  partial_line_.clear();
  CloseFds();
  return result_;
}

SubprocessResult RunSubprocess(const std::vector<std::string>& argv,
                               const SubprocessOptions& options) {
  Subprocess process;
  if (!process.Start(argv, options)) return process.Wait();
  return process.Wait();
}

PseudoTerminal::~PseudoTerminal() {
  if (master_ >= 0) close(master_);
  if (slave_ >= 0) close(slave_);
}

bool PseudoTerminal::Open(std::string* error) {
  master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  const char* name = nullptr;
  if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0 ||
      !(name = ptsname(master_))) {
    *error = std::string("cannot open a pseudo-terminal: ") + strerror(errno);
    return false;
  }
  slave_path_ = name;
  slave_ = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave_ < 0) {
    *error = "cannot open " + slave_path_ + ": " + strerror(errno);
    return false;
  }
  return true;
}

std::string ShellQuote(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !arg.empty();
    for (char c : arg) {
      if (!(isalnum(static_cast<unsigned char>(c)) || strchr("@%_-+=:,./", c))) plain = false;
    }
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (char c : arg) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

}  // namespace snare::util
