#include "sentry/guest_launcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

volatile pid_t g_guest_pid = -1;

void ForwardSignal(int sig) {
  if (g_guest_pid > 0) kill(g_guest_pid, sig);
}

void WriteStderr(const char* a, const char* b) {
  char buf[512];
  int n = snprintf(buf, sizeof(buf), "snare: %s: %s\n", a, b);
  if (n > 0) (void)!write(2, buf, static_cast<size_t>(std::min(n, 511)));
}

bool PlaceFd(int fd, int target) {
  if (fd == target) return fcntl(fd, F_SETFD, 0) == 0;
  return dup2(fd, target) == target;
}

[[noreturn]] void ExecEntry(const LaunchSpec& spec, std::vector<const char*>& argv, char* fd_str) {
  for (const auto& [from, to] : spec.entry.fds) {
    if (!PlaceFd(from, to)) {
      WriteStderr("cannot place snare's reserved fds", strerror(errno));
      _exit(127);
    }
  }
  int fd = open(spec.path.c_str(), O_RDONLY);
  if (fd < 0) {
    WriteStderr(spec.argv[0].c_str(), strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  snprintf(fd_str, 16, "%d", fd);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    WriteStderr("PR_SET_NO_NEW_PRIVS", strerror(errno));
    _exit(127);
  }
  syscall(SYS_execveat, spec.entry.exec_fd, "", argv.data(), environ, AT_EMPTY_PATH);
  WriteStderr("cannot exec the stub", strerror(errno));
  _exit(127);
}

// Without a pid namespace: kill what is left among init's children (it is their subreaper).
void KillRemainingChildren() {
  for (int round = 0; round < 50; ++round) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%d/children", getpid());
    FILE* f = fopen(path, "re");
    bool any = false;
    if (f) {
      int pid;
      while (fscanf(f, "%d", &pid) == 1) {
        kill(pid, SIGKILL);
        any = true;
      }
      fclose(f);
    }
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (!any) return;
    usleep(1000);
  }
}

[[noreturn]] void InitMain(const LaunchSpec& spec, bool own_ns, std::vector<const char*>& argv,
                           char* fd_str, int lifeline) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The sentry may have died before the line above: then no signal will come, but the
  // lifeline pipe, whose write end only the sentry holds, has already hung up.
  pollfd alive = {lifeline, 0, 0};
  if (poll(&alive, 1, 0) > 0 && (alive.revents & (POLLHUP | POLLERR))) _exit(128 + SIGKILL);
  close(lifeline);
  if (!own_ns) prctl(PR_SET_CHILD_SUBREAPER, 1);
  pid_t guest = fork();
  if (guest < 0) {
    WriteStderr("fork", strerror(errno));
    _exit(127);
  }
  if (guest == 0) ExecEntry(spec, argv, fd_str);
  g_guest_pid = guest;
  // Signals sent to snare (through the sentry) go to the guest; the terminal's SIGINT and
  // SIGQUIT reach the guest directly through the process group.
  struct sigaction forward = {};
  forward.sa_handler = ForwardSignal;
  for (int sig : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(sig, &forward, nullptr);
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int code = 127;
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;
    if (pid == guest) {
      code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
  }
  // Returning kills the rest of the pid namespace; without one, do it by hand.
  if (!own_ns) KillRemainingChildren();
  _exit(code);
}

bool EnsureFdsFit(int highest) {
  rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return false;
  if (lim.rlim_cur > static_cast<rlim_t>(highest)) return true;
  if (lim.rlim_max <= static_cast<rlim_t>(highest)) return false;
  lim.rlim_cur = static_cast<rlim_t>(highest) + 1;
  return setrlimit(RLIMIT_NOFILE, &lim) == 0;
}

}  // namespace

std::expected<LaunchedGuest, std::string> LaunchGuest(const LaunchSpec& spec) {
  int lowest = 0, highest = 0;
  for (const auto& [from, to] : spec.entry.fds) {
    lowest = lowest ? std::min(lowest, to) : to;
    highest = std::max(highest, to);
  }
  if (!EnsureFdsFit(highest)) {
    return std::unexpected("RLIMIT_NOFILE is below " + std::to_string(highest + 1) +
                           ": snare keeps fds " + std::to_string(lowest) + "-" +
                           std::to_string(highest) + " in every guest (raise it with `ulimit -n " +
                           std::to_string(highest + 2) + "`)");
  }
  static char fd_str[16];
  std::vector<const char*> argv;
  for (const std::string& a : spec.entry.argv_prefix) argv.push_back(a.c_str());
  argv.push_back(fd_str);
  argv.push_back(spec.path.c_str());
  for (const auto& a : spec.argv) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  // The sentry keeps the write end for its whole life (close-on-exec, never written).
  int lifeline[2];
  if (pipe2(lifeline, O_CLOEXEC) != 0) {
    return std::unexpected(std::string("pipe: ") + strerror(errno));
  }
  fflush(nullptr);
  LaunchedGuest launched;
  // A new pid namespace: its init dies with the sentry (PR_SET_PDEATHSIG) and the kernel
  // then kills every guest process.
  long pid = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  launched.own_pid_namespace = pid >= 0;
  if (pid < 0 && (errno == EPERM || errno == EINVAL || errno == ENOSPC)) pid = fork();
  if (pid < 0) {
    int err = errno;
    close(lifeline[0]);
    close(lifeline[1]);
    return std::unexpected(std::string("fork: ") + strerror(err));
  }
  if (pid == 0) {
    close(lifeline[1]);
    InitMain(spec, launched.own_pid_namespace, argv, fd_str, lifeline[0]);
  }
  close(lifeline[0]);
  launched.init_pid = static_cast<pid_t>(pid);
  return launched;
}

int WaitGuest(const LaunchedGuest& guest) {
  for (;;) {
    int status;
    pid_t pid = waitpid(guest.init_pid, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
}

}  // namespace snare::sentry
