#include "sentry/guest_launcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sentry/confined_launch.h"
#include "sentry/guest_exec.h"
#include "util/fd_passing.h"

namespace snare::sentry {
namespace {

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

// A pid namespace with the host's /proc shows the guest other processes under its own pids
// (CPython's pidfd_send_signal on open("/proc/<getpid()>") fails with EINVAL: that pidfd is
// a host process). A private mount namespace with a procfs of the new pid namespace mends
// that. Best effort: where the kernel refuses (in a container whose /proc is partly masked),
// the guest keeps the host's /proc.
void MountOwnProc() {
  if (unshare(CLONE_NEWNS) != 0) return;
  // Nothing mounted here may reach the host's mount namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) return;
  mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
}

// The unconfined launch's init: pid 1 of a new pid namespace when the kernel allows it.
[[noreturn]] void PlainInitMain(const LaunchSpec& spec, GuestExec& exec, bool own_ns, int lifeline,
                                int proc_sock) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The sentry may have died before the line above: then no signal will come, but the
  // lifeline pipe, whose write end only the sentry holds, has already hung up.
  pollfd alive = {lifeline, 0, 0};
  if (poll(&alive, 1, 0) > 0 && (alive.revents & (POLLHUP | POLLERR))) _exit(128 + SIGKILL);
  close(lifeline);
  if (own_ns) {
    MountOwnProc();
    // The sentry tests the guest's threads for life by the ids the guest's /proc shows: in
    // the host's, a guest thread's id names another process or none.
    int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) Die("open /proc", strerror(errno));
    if (util::SendWithFd(proc_sock, "proc", 4, proc) != 4) Die("send /proc", strerror(errno));
    close(proc);
  } else {
    prctl(PR_SET_CHILD_SUBREAPER, 1);
  }
  close(proc_sock);
  // vfork: the child only places fds, sets limits and execs (no allocation, no return; Die
  // is _exit), so init's pages need no copy for it to throw away at its exec.
  pid_t guest = vfork();
  if (guest < 0) Die("vfork", strerror(errno));
  if (guest == 0) {
    exec.PlaceFds();
    // --rlimit applies unconfined too (after the fds: snare's may lie above a low nofile).
    if (spec.sandbox) {
      for (const sandbox::RlimitSpec& r : spec.sandbox->rlimits) {
        rlimit lim = {r.soft, r.hard};
        if (setrlimit(r.resource, &lim) != 0) Die("setrlimit", strerror(errno));
      }
    }
    exec.OpenAndExec();
  }
  // The terminal's SIGINT and SIGQUIT reach the guest directly through the process group.
  int code = ForwardSignalsAndWait(guest, guest, /*interrupts=*/false);
  // Returning kills the rest of the pid namespace; without one, do it by hand.
  if (!own_ns) KillRemainingChildren();
  _exit(code);
}

std::expected<LaunchedGuest, std::string> LaunchPlain(const LaunchSpec& spec, GuestExec& exec) {
  // The sentry keeps the write end for its whole life (close-on-exec, never written).
  int lifeline[2];
  if (pipe2(lifeline, O_CLOEXEC) != 0) {
    return std::unexpected(std::string("pipe: ") + strerror(errno));
  }
  int proc_sock[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, proc_sock) != 0) {
    int err = errno;
    close(lifeline[0]);
    close(lifeline[1]);
    return std::unexpected(std::string("socketpair: ") + strerror(err));
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
    for (int fd : {lifeline[0], lifeline[1], proc_sock[0], proc_sock[1]}) close(fd);
    return std::unexpected(std::string("fork: ") + strerror(err));
  }
  if (pid == 0) {
    close(lifeline[1]);
    close(proc_sock[0]);
    PlainInitMain(spec, exec, launched.own_pid_namespace, lifeline[0], proc_sock[1]);
  }
  close(lifeline[0]);
  close(proc_sock[1]);
  launched.init_pid = static_cast<pid_t>(pid);
  if (launched.own_pid_namespace) {
    // Without it the sentry falls back to kill(2) in its own pid namespace, which frees the
    // slots of live guest threads once they run short: refuse to run instead.
    char buf[8];
    int fd = -1;
    ssize_t n;
    do {
      n = util::ReceiveWithFd(proc_sock[0], buf, sizeof(buf), &fd);
    } while (n < 0 && errno == EINTR);
    if (n <= 0 || fd < 0) {
      if (fd >= 0) close(fd);
      close(proc_sock[0]);
      kill(launched.init_pid, SIGKILL);
      waitpid(launched.init_pid, nullptr, 0);
      close(lifeline[1]);
      return std::unexpected("the guest's init exited before it could send its /proc");
    }
    launched.guest_proc_fd = fd;
  }
  close(proc_sock[0]);
  return launched;
}

// The threads of this process, or 0 where /proc cannot tell (or where ThreadSanitizer's
// runtime keeps a thread of its own in every process).
int ThreadCount() {
#if defined(__SANITIZE_THREAD__)
  return 0;
#else
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return 0;
  int count = 0;
  while (const dirent* e = readdir(dir)) count += e->d_name[0] != '.';
  closedir(dir);
  return count;
#endif
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
  // clone(2) copies only the calling thread: a lock that another thread held at that moment
  // (malloc's, a sanitizer's) stays held in the guest's init, which runs snare's code until
  // its exec and would wait on it forever (one run in a hundred hung under ASan so).
  if (const int threads = ThreadCount(); threads > 1) {
    return std::unexpected("internal error: the guest is launched while snare runs " +
                           std::to_string(threads) +
                           " threads; it must have one (start threads after LaunchGuest)");
  }
  // Built before fork: nothing allocates after it. The children never return from here, so
  // their copy of this frame lives until they exec.
  GuestExec exec(spec);
  if (spec.sandbox && spec.sandbox->confine) return LaunchConfined(spec, exec);
  return LaunchPlain(spec, exec);
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
