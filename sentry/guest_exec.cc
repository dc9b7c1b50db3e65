#include "sentry/guest_exec.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

extern char** environ;

namespace snare::sentry {
namespace {

volatile pid_t g_forward_to = 0;

void Forward(int sig) {
  if (g_forward_to != 0) kill(g_forward_to, sig);
}

bool PlaceFd(int fd, int target) {
  if (fd == target) return fcntl(fd, F_SETFD, 0) == 0;
  return dup2(fd, target) == target;
}

}  // namespace

void WriteStderr(const char* what, const char* detail) {
  char buf[512];
  int n = snprintf(buf, sizeof(buf), "snare: %s: %s\n", what, detail);
  if (n > 0) (void)!write(2, buf, static_cast<size_t>(std::min(n, 511)));
}

void Die(const char* what, const char* detail, int status) {
  WriteStderr(what, detail);
  _exit(status);
}

GuestExec::GuestExec(const LaunchSpec& spec) : spec_(spec) {
  for (const std::string& a : spec.entry.argv_prefix) argv_.push_back(a.c_str());
  argv_.push_back(fd_str_);
  argv_.push_back(spec.path.c_str());
  for (const auto& a : spec.argv) argv_.push_back(a.c_str());
  argv_.push_back(nullptr);
}

void GuestExec::PlaceFds() const {
  // The sentry's own fds are close-on-exec; what the user handed snare reaches the guest.
  for (const auto& [from, to] : spec_.entry.fds) {
    if (!PlaceFd(from, to)) Die("cannot place snare's reserved fds", strerror(errno));
  }
}

void GuestExec::CloseInheritedFds(const std::vector<int>& keep) const {
  // Post-fork: no allocation. 0-2, the entry's fds, exec_fd and what the user kept.
  constexpr size_t kMax = 64;
  unsigned kept[kMax];
  size_t n = 0;
  auto add = [&](int fd) {
    if (fd >= 0 && n < kMax) kept[n++] = static_cast<unsigned>(fd);
  };
  for (int fd : {0, 1, 2, spec_.entry.exec_fd}) add(fd);
  for (const auto& [from, to] : spec_.entry.fds) add(to);
  for (int fd : keep) add(fd);
  if (n == kMax) Die("--keep-fd", "too many fds kept (at most 50)");
  std::sort(kept, kept + n);
  unsigned next = 0;
  for (size_t i = 0; i < n; ++i) {
    if (kept[i] > next && syscall(SYS_close_range, next, kept[i] - 1, 0) != 0) {
      Die("closing the inherited fds", strerror(errno));
    }
    next = std::max(next, kept[i] + 1);
  }
  if (syscall(SYS_close_range, next, ~0u, 0) != 0) {
    Die("closing the inherited fds", strerror(errno));
  }
}

void GuestExec::OpenProgram() {
  int fd = open(spec_.path.c_str(), O_RDONLY);
  if (fd < 0) {
    int err = errno;
    Die(spec_.argv[0].c_str(), strerror(err), err == ENOENT ? 127 : 126);
  }
  snprintf(fd_str_, sizeof(fd_str_), "%d", fd);
}

void GuestExec::Exec() {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) Die("PR_SET_NO_NEW_PRIVS", strerror(errno));
  syscall(SYS_execveat, spec_.entry.exec_fd, "", argv_.data(), environ, AT_EMPTY_PATH);
  Die("cannot exec the stub", strerror(errno));
}

int ForwardSignalsAndWait(pid_t child, pid_t target, bool interrupts) {
  g_forward_to = target;
  struct sigaction forward = {};
  forward.sa_handler = Forward;
  for (int sig : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(sig, &forward, nullptr);
  for (int sig : {SIGINT, SIGQUIT}) {
    if (interrupts) {
      sigaction(sig, &forward, nullptr);
    } else {
      signal(sig, SIG_IGN);
    }
  }
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return 127;
    if (pid == child) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
}

}  // namespace snare::sentry
