// The groups as constant data (names checked against the syscall table by
// syscall_group_test.cc). Freestanding: no libc, nothing initialized at run time.
#include "abi/syscall_group.h"

#include <stdint.h>

#include "abi/syscall_table.h"

namespace snare::abi {
namespace {

template <typename... Names>
constexpr SyscallGroup Group(const char* name, const char* summary, Names... members) {
  static_assert(sizeof...(Names) >= 2 && sizeof...(Names) <= kMaxGroupMembers,
                "a group holds 2 to kMaxGroupMembers syscalls");
  return SyscallGroup{name, summary, static_cast<uint8_t>(sizeof...(Names)), {members...}};
}

bool NamesEqual(const char* a, const char* b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

}  // namespace

constexpr SyscallGroup kSyscallGroups[] = {
    // Files by path (and by handle: open_by_handle_at reopens what name_to_handle_at named).
    Group("file-open", "open or create a file", "open", "openat", "openat2", "creat",
          "open_by_handle_at"),
    Group("stat", "read a file's metadata", "stat", "lstat", "fstat", "newfstatat", "statx"),
    Group("access", "check access to a path", "access", "faccessat", "faccessat2"),
    Group("readlink", "read a symlink", "readlink", "readlinkat"),
    Group("mkdir", "create a directory", "mkdir", "mkdirat"),
    Group("mknod", "create a device, FIFO or socket node", "mknod", "mknodat"),
    Group("unlink", "remove a name (rmdir is unlinkat with AT_REMOVEDIR)", "unlink", "unlinkat",
          "rmdir"),
    Group("rename", "rename a path", "rename", "renameat", "renameat2"),
    Group("link", "make a hard link", "link", "linkat"),
    Group("symlink", "make a symlink", "symlink", "symlinkat"),
    Group("chmod", "change a file's mode", "chmod", "fchmod", "fchmodat", "fchmodat2"),
    Group("chown", "change a file's owner", "chown", "fchown", "lchown", "fchownat"),
    Group("utime", "change a file's times", "utime", "utimes", "futimesat", "utimensat"),
    Group("truncate", "change a file's size (by path or by an fd open for writing)", "truncate",
          "ftruncate"),
    Group("chdir", "change the working directory (fchdir of an O_PATH fd is chdir)", "chdir",
          "fchdir"),
    Group("getdents", "list a directory", "getdents", "getdents64"),
    Group("statfs", "read a filesystem's metadata", "statfs", "fstatfs"),
    Group("setxattr", "set an extended attribute", "setxattr", "lsetxattr", "fsetxattr",
          "setxattrat"),
    Group("getxattr", "read an extended attribute", "getxattr", "lgetxattr", "fgetxattr",
          "getxattrat"),
    Group("listxattr", "list extended attributes", "listxattr", "llistxattr", "flistxattr",
          "listxattrat"),
    Group("removexattr", "remove an extended attribute", "removexattr", "lremovexattr",
          "fremovexattr", "removexattrat"),
    // The new mount API builds and attaches a mount without mount(2).
    Group("mount", "attach a filesystem", "mount", "fsopen", "fsconfig", "fsmount", "move_mount",
          "open_tree", "open_tree_attr", "mount_setattr"),
    // Data through fds.
    Group("read", "read from an fd", "read", "readv", "pread64", "preadv", "preadv2"),
    Group("write", "write to an fd", "write", "writev", "pwrite64", "pwritev", "pwritev2"),
    Group("send", "send on a socket", "sendto", "sendmsg", "sendmmsg"),
    Group("recv", "receive from a socket", "recvfrom", "recvmsg", "recvmmsg"),
    Group("accept", "accept a connection", "accept", "accept4"),
    Group("dup", "duplicate an fd", "dup", "dup2", "dup3"),
    Group("pipe", "make a pipe", "pipe", "pipe2"),
    // Waiting and fd-backed events.
    Group("poll", "wait for fds (poll)", "poll", "ppoll"),
    Group("select", "wait for fds (select)", "select", "pselect6"),
    Group("epoll_wait", "wait on an epoll instance", "epoll_wait", "epoll_pwait", "epoll_pwait2"),
    Group("epoll_create", "make an epoll instance", "epoll_create", "epoll_create1"),
    Group("signalfd", "make a signalfd", "signalfd", "signalfd4"),
    Group("eventfd", "make an eventfd", "eventfd", "eventfd2"),
    Group("inotify_init", "make an inotify instance", "inotify_init", "inotify_init1"),
    Group("sleep", "sleep", "nanosleep", "clock_nanosleep"),
    Group("futex", "wait on or wake a futex", "futex", "futex_waitv", "futex_wait", "futex_wake",
          "futex_requeue"),
    // Processes.
    Group("exec", "run a program", "execve", "execveat"),
    Group("fork", "create a process or thread", "fork", "vfork", "clone", "clone3"),
    Group("wait", "wait for a child", "wait4", "waitid"),
    Group("kill", "send a signal", "kill", "tkill", "tgkill", "pidfd_send_signal",
          "rt_sigqueueinfo", "rt_tgsigqueueinfo"),
    Group("setuid", "change user ids (setfsuid: the one file access checks)", "setuid", "setreuid",
          "setresuid", "setfsuid"),
    Group("setgid", "change group ids (setfsgid: the one file access checks)", "setgid", "setregid",
          "setresgid", "setfsgid"),
    Group("setrlimit", "change a resource limit", "setrlimit", "prlimit64"),
};

constexpr int kSyscallGroupCount = sizeof(kSyscallGroups) / sizeof(kSyscallGroups[0]);

const SyscallGroup* FindSyscallGroup(const char* name) {
  if (name == nullptr) return nullptr;
  for (int i = 0; i < kSyscallGroupCount; ++i) {
    if (NamesEqual(kSyscallGroups[i].name, name)) return &kSyscallGroups[i];
  }
  return nullptr;
}

const SyscallGroup* GroupOfSyscall(uint64_t nr) {
  const char* name = SyscallName(nr);
  if (name == nullptr) return nullptr;
  for (int i = 0; i < kSyscallGroupCount; ++i) {
    for (int m = 0; m < kSyscallGroups[i].count; ++m) {
      if (NamesEqual(kSyscallGroups[i].members[m], name)) return &kSyscallGroups[i];
    }
  }
  return nullptr;
}

}  // namespace snare::abi
