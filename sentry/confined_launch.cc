#include "sentry/confined_launch.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/keyctl.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <vector>

#include "sandbox/capabilities.h"
#include "sandbox/id_maps.h"
#include "sandbox/init_filter.h"
#include "sandbox/ipc_limits.h"
#include "sandbox/landlock_rules.h"
#include "sandbox/loopback.h"
#include "sandbox/mount_setup.h"
#include "sentry/guest_exec.h"
#include "util/fd_passing.h"
#include "util/host_path.h"

namespace snare::sentry {
namespace {

using sandbox::SandboxSpec;

// Messages on the setup socket (SOCK_SEQPACKET: one message per send).
constexpr char kReady[] = "ready";
constexpr char kErrorPrefix[] = "error ";

void Send(int sock, const std::string& message, int fd = -1) {
  (void)!util::SendWithFd(sock, message.data(), message.size(), fd);
}

[[noreturn]] void Fail(int sock, const std::string& what) {
  Send(sock, kErrorPrefix + what);
  _exit(127);
}

// Exits when `fd`'s other end is already closed: the process that should have killed us
// with PR_SET_PDEATHSIG died before we asked for it.
void ExitIfOrphaned(int fd) {
  pollfd alive = {fd, 0, 0};
  if (poll(&alive, 1, 0) > 0 && (alive.revents & (POLLHUP | POLLERR))) _exit(128 + SIGKILL);
}

// A child of the sentry's whose part is over (the holder) or failed: none is left behind.
void KillAndReap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// In the guest: leave everything the setup needed behind, then enter the platform.
[[noreturn]] void GuestMain(const LaunchSpec& spec, GuestExec& exec, const sandbox::IdMap& ids) {
  const SandboxSpec& sb = *spec.sandbox;
  exec.PlaceFds();
  exec.CloseInheritedFds(sb.keep_fds);
  // No controlling terminal: TIOCSTI and job control cannot reach the invoking shell.
  if (setsid() < 0) Die("setsid", strerror(errno));
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) Die("PR_SET_NO_NEW_PRIVS", strerror(errno));
  if (auto r = sandbox::RestrictWithLandlock(sb); !r) Die("landlock", r.error().c_str());
  // Opened with the setup's credentials: a program the invoking user may run starts even
  // where the guest's own user could not reach it.
  exec.OpenProgram();
  if (auto r =
          sandbox::DropPrivileges(sb.uid.value_or(ids.inside_uid), sb.gid.value_or(ids.inside_gid));
      !r) {
    Die("dropping privileges", r.error().c_str());
  }
  // Keyrings are not namespaced: the invoker's session keyring would be the guest's. A fresh,
  // empty one instead (a kernel without keys has nothing to hide).
  if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr) < 0 && errno != ENOSYS) {
    Die("joining a session keyring of the guest's own", strerror(errno));
  }
  // Last: this process is still a copy of snare's, whose address space (a sanitizer's shadow
  // included) may already exceed the guest's RLIMIT_AS, so that any mapping after it fails.
  // Only lowered limits: no privilege needed.
  for (const sandbox::RlimitSpec& r : sb.rlimits) {
    rlimit lim = {r.soft, r.hard};
    if (setrlimit(r.resource, &lim) != 0) Die("setrlimit", strerror(errno));
  }
  exec.Exec();
}

// pid 1 of the sandbox's pid namespace, root of its user namespace: builds the guest's
// world, forks the guest, then only waits (under a filter of its own).
[[noreturn]] void InitMain(const LaunchSpec& spec, GuestExec& exec, const sandbox::IdMap& ids,
                           const std::map<std::string, int>& prepared, int sock, int parent_line) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  ExitIfOrphaned(parent_line);
  // Wait until the sentry has written our id maps. It holds the line's other end while it
  // lives: a hang-up with nothing to read means it died first.
  char go;
  if (read(parent_line, &go, 1) != 1) _exit(128 + SIGKILL);

  // Not dumpable: the guest cannot read or write init's memory through /proc.
  prctl(PR_SET_DUMPABLE, 0);
  const SandboxSpec& sb = *spec.sandbox;
  if (sethostname(sb.hostname.data(), sb.hostname.size()) != 0) {
    Fail(sock, std::string("sethostname: ") + strerror(errno));
  }
  if (sb.network == SandboxSpec::Network::kNone) {
    if (auto r = sandbox::BringUpLoopback(); !r) Fail(sock, r.error());
  }
  if (auto r = sandbox::SetUpMounts(sb, prepared, spec.cwd); !r) Fail(sock, r.error());
  if (sb.tmpfs_size) {
    if (auto r = sandbox::BoundSharedMemory("/proc", sb.tmpfs_size); !r) Fail(sock, r.error());
  }
  for (const auto& [target, fd] : prepared) close(fd);
  // The sentry finds the guest's threads in the guest's /proc (it may not look through
  // /proc/PID/root of a process that is not dumpable). Sent before the guest exists: the
  // sentry gets on with its side while the guest starts.
  int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  Send(sock, kReady, proc);
  close(sock);
  if (proc >= 0) close(proc);
  // The sentry's second byte: init is in the guest's cgroup, and so is all it forks.
  if (read(parent_line, &go, 1) != 1) _exit(128 + SIGKILL);
  close(parent_line);
  // vfork: the guest only sets its own attributes and execs (init waits meanwhile), so
  // there is no copy of init's address space to make, fault in and tear down.
  pid_t guest = vfork();
  if (guest < 0) Die("vfork", strerror(errno));
  if (guest == 0) GuestMain(spec, exec, ids);
  if (auto r = sandbox::InstallInitFilter(); !r) {
    kill(guest, SIGKILL);
    Die("init", r.error().c_str());
  }
  // The guest leads its own session: signals for it go to its whole process group. The exit
  // is the bare syscall: its filter allows nothing a libc or sanitizer exit hook might call.
  syscall(SYS_exit_group, ForwardSignalsAndWait(guest, -guest, /*interrupts=*/true));
  __builtin_unreachable();
}

// Clones init into the sandbox's namespaces, the sentry's own child: the sentry writes its id
// maps, relays signals to it and reaps it (no process of snare's stands between them: each
// costs a fork and, when the guest is done, an exit on the way to the status). Root's
// supplementary groups would stay effective inside, so init starts without them; the sentry
// keeps its own. Returns init's pid; init waits on `line` until its maps are written.
std::expected<pid_t, std::string> CloneInit(const LaunchSpec& spec, GuestExec& exec,
                                            const sandbox::IdMap& ids,
                                            const std::map<std::string, int>& prepared,
                                            const int sock[2], const int line[2]) {
  std::vector<gid_t> groups;
  const bool root = getuid() == 0;
  if (root) {
    const int n = getgroups(0, nullptr);
    groups.resize(static_cast<size_t>(std::max(n, 0)));
    if (n < 0 || getgroups(n, groups.data()) != n) {
      return std::unexpected(std::string("getgroups: ") + strerror(errno));
    }
    if (setgroups(0, nullptr) != 0) {
      return std::unexpected(std::string("setgroups: ") + strerror(errno));
    }
  }
  unsigned long flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS;
  if (spec.sandbox->network == SandboxSpec::Network::kNone) flags |= CLONE_NEWNET;
  fflush(nullptr);
  // Under cgroup v2 init is born in the guest's cgroup (no move, so no wait; see
  // guest_cgroup.h); else, or where clone3 is refused, it is moved there below.
  long init = -1;
  bool born_inside = false;
  if (spec.cgroup && spec.cgroup->clone_fd() >= 0) {
    clone_args args = {};
    args.flags = flags | CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = static_cast<uint64_t>(spec.cgroup->clone_fd());
    init = syscall(SYS_clone3, &args, sizeof(args));
    born_inside = init >= 0;
  }
  if (!born_inside) init = syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
  const int clone_err = errno;
  if (init == 0) {
    close(sock[0]);
    close(line[1]);
    InitMain(spec, exec, ids, prepared, sock[1], line[0]);
  }
  if (root && setgroups(groups.size(), groups.data()) != 0) {
    // The sentry could no longer do what root's groups let it: stop rather than go on changed.
    if (init > 0) KillAndReap(static_cast<pid_t>(init));
    return std::unexpected(std::string("restoring snare's groups: ") + strerror(errno));
  }
  if (init < 0) {
    return std::unexpected(std::string("creating the sandbox's namespaces: ") +
                           strerror(clone_err) +
                           (clone_err == EPERM || clone_err == ENOSPC
                                ? " (are unprivileged user namespaces disabled? see "
                                  "/proc/sys/user/max_user_namespaces)"
                                : ""));
  }
  if (auto r = sandbox::WriteIdMaps(static_cast<pid_t>(init), ids); !r) {
    KillAndReap(static_cast<pid_t>(init));
    return std::unexpected(r.error());
  }
  // Not dumpable from here on (before the guest can exist), as init makes itself.
  prctl(PR_SET_DUMPABLE, 0);
  (void)!write(line[1], "g", 1);  // init may build the guest's tree
  // Joined meanwhile (a cgroup v1 attach waits out an RCU grace period, milliseconds); init
  // forks the guest only after the second byte, so all the sandbox starts is inside.
  if (spec.cgroup && !born_inside) {
    if (auto r = spec.cgroup->Join(static_cast<pid_t>(init)); !r) {
      KillAndReap(static_cast<pid_t>(init));
      return std::unexpected(r.error());
    }
  }
  (void)!write(line[1], "c", 1);
  return static_cast<pid_t>(init);
}

// The holder of IdmappedTree's user namespace: it shares the sentry's memory (CLONE_VM: no
// copy of the sentry's address space to make and tear down), runs on a stack of its own and
// only waits to be killed. It shares the sentry thread's TLS too, so it starts with every
// signal blocked (no handler of the sentry's can run on it) and calls only syscall(2), whose
// only write, errno on a failure, none of these calls meets.
struct HolderArgs {
  pid_t parent;
  int ready;  // written once the holder lives past the parent-death check
};
alignas(64) char g_holder_stack[16384];

int HolderMain(void* arg) {
  const auto* args = static_cast<const HolderArgs*>(arg);
  // A sentry killed while the holder lives must not leave it behind.
  syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (syscall(SYS_getppid) != args->parent) syscall(SYS_exit_group, 1);
  syscall(SYS_write, args->ready, "u", 1);
  for (;;) syscall(SYS_pause);
}

// An unprivileged guest cannot write a directory root owns: for a run as root, the working
// directory is attached through an idmapped mount that shows root's files as the guest's.
std::expected<int, std::string> IdmappedTree(const std::string& path, const sandbox::IdMap& ids) {
  // A process whose only job is to own a user namespace until the mount is idmapped.
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) {
    return std::unexpected(std::string("pipe: ") + strerror(errno));
  }
  HolderArgs args = {getpid(), ready[1]};
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &before);  // the holder inherits the mask
  pid_t holder = clone(HolderMain, g_holder_stack + sizeof(g_holder_stack),
                       CLONE_VM | CLONE_NEWUSER | SIGCHLD, &args);
  const int clone_err = errno;
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  close(ready[1]);
  if (holder < 0) {
    close(ready[0]);
    return std::unexpected(std::string("clone(CLONE_NEWUSER): ") + strerror(clone_err));
  }
  char c;
  const bool started = read(ready[0], &c, 1) == 1;
  close(ready[0]);
  auto done = [&](std::expected<int, std::string> result) {
    KillAndReap(holder);
    return result;
  };
  if (!started) return done(std::unexpected(std::string("the user namespace's holder died")));
  // The holder's namespace shows on-disk owner 0 as the guest's host id.
  sandbox::IdMap map = {0, ids.outside_uid, 0, ids.outside_gid, /*map_root=*/false};
  if (auto r = sandbox::WriteIdMaps(holder, map); !r) return done(std::unexpected(r.error()));
  const std::string ns_path = "/proc/" + std::to_string(holder) + "/ns/user";
  int userns = open(ns_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (userns < 0) return done(std::unexpected("open " + ns_path + ": " + strerror(errno)));
  // Opened without following a link: the guest may have planted one there in an earlier run.
  auto source = util::OpenWithoutSymlinks(AT_FDCWD, path, O_PATH);
  if (!source) {
    close(userns);
    return done(std::unexpected(source.error()));
  }
  int tree =
      static_cast<int>(syscall(SYS_open_tree, *source, "",
                               OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH));
  const int open_err = errno;
  close(*source);
  if (tree < 0) {
    close(userns);
    return done(std::unexpected("open_tree " + path + ": " + strerror(open_err)));
  }
  mount_attr attr = {};
  attr.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
  attr.userns_fd = static_cast<uint64_t>(userns);
  long rc = syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof(attr));
  int err = errno;
  close(userns);
  if (rc != 0) {
    close(tree);
    return done(std::unexpected(std::string("idmapping ") + path + ": " + strerror(err)));
  }
  return done(tree);
}

}  // namespace

std::expected<LaunchedGuest, std::string> LaunchConfined(const LaunchSpec& spec, GuestExec& exec) {
  const sandbox::IdMap ids =
      sandbox::GuestIdMap(getuid(), getgid(), spec.sandbox->uid, spec.sandbox->gid);
  std::map<std::string, int> prepared;
  if (getuid() == 0) {
    // Every writable bind (the working directory's and --bind's), so that the guest may
    // write what root may.
    for (const sandbox::MountSpec& m : spec.sandbox->mounts) {
      if (m.kind != sandbox::MountSpec::Kind::kBind) continue;
      auto tree = IdmappedTree(m.source, ids);
      if (!tree) {
        for (const auto& [t, fd] : prepared) close(fd);
        const bool is_cwd = m.source == spec.cwd;
        return std::unexpected(
            "cannot make " + (is_cwd ? "the working directory" : m.source) +
            " writable for the guest (" + tree.error() + "); " +
            (is_cwd ? "run elsewhere or use --profile=trace" : "bind another directory"));
      }
      if (auto it = prepared.find(m.target); it != prepared.end()) close(it->second);
      prepared[m.target] = *tree;
    }
  }
  int sock[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) != 0) {
    for (const auto& [t, fd] : prepared) close(fd);
    return std::unexpected(std::string("socketpair: ") + strerror(errno));
  }
  int line[2];
  if (pipe2(line, O_CLOEXEC) != 0) {
    for (int fd : sock) close(fd);
    for (const auto& [t, fd] : prepared) close(fd);
    return std::unexpected(std::string("pipe: ") + strerror(errno));
  }
  auto init = CloneInit(spec, exec, ids, prepared, sock, line);
  for (int fd : {sock[1], line[0]}) close(fd);
  for (const auto& [target, fd] : prepared) close(fd);
  if (!init) {
    close(sock[0]);
    close(line[1]);
    return std::unexpected("cannot set up the sandbox: " + init.error());
  }

  LaunchedGuest launched;
  launched.init_pid = *init;
  launched.own_pid_namespace = true;
  std::string error;
  for (;;) {
    char buf[4096];
    int fd;
    ssize_t n = util::ReceiveWithFd(sock[0], buf, sizeof(buf), &fd);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = "the sandbox's init exited during setup";
      break;
    }
    std::string message(buf, static_cast<size_t>(n));
    if (message.rfind(kErrorPrefix, 0) == 0) {
      error = message.substr(sizeof(kErrorPrefix) - 1);
      break;
    } else if (message == kReady) {
      launched.guest_proc_fd = fd;
      if (fd < 0) error = "init sent no /proc";
      break;
    }
    if (fd >= 0) close(fd);
  }
  close(sock[0]);
  if (!error.empty()) {
    KillAndReap(*init);
    close(line[1]);
    return std::unexpected("cannot set up the sandbox: " + error);
  }
  // line[1] stays open (close-on-exec) until the sentry exits: init's test for an orphan.
  return launched;
}

}  // namespace snare::sentry
