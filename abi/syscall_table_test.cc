#include "abi/syscall_table.h"

#include <asm-generic/errno-base.h>
#include <asm-generic/errno.h>
#include <asm/unistd_64.h>
#include <stdint.h>

#include <set>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace snare::abi {
namespace {

struct Expected {
  int nr;
  const char* name;
};

// clang-format off
// Every syscall in the installed <asm/unistd_64.h> (Linux 6.1 UAPI headers), generated with
//   grep -oP '#define __NR_\K\w+' /usr/include/x86_64-linux-gnu/asm/unistd_64.h
#define SNARE_SYSCALLS_FROM_UNISTD_64(X) \
    X(read) X(write) X(open) X(close) X(stat) X(fstat) X(lstat) X(poll) X(lseek) X(mmap) \
    X(mprotect) X(munmap) X(brk) X(rt_sigaction) X(rt_sigprocmask) X(rt_sigreturn) X(ioctl) \
    X(pread64) X(pwrite64) X(readv) X(writev) X(access) X(pipe) X(select) X(sched_yield) X(mremap) \
    X(msync) X(mincore) X(madvise) X(shmget) X(shmat) X(shmctl) X(dup) X(dup2) X(pause) \
    X(nanosleep) X(getitimer) X(alarm) X(setitimer) X(getpid) X(sendfile) X(socket) X(connect) \
    X(accept) X(sendto) X(recvfrom) X(sendmsg) X(recvmsg) X(shutdown) X(bind) X(listen) \
    X(getsockname) X(getpeername) X(socketpair) X(setsockopt) X(getsockopt) X(clone) X(fork) \
    X(vfork) X(execve) X(exit) X(wait4) X(kill) X(uname) X(semget) X(semop) X(semctl) X(shmdt) \
    X(msgget) X(msgsnd) X(msgrcv) X(msgctl) X(fcntl) X(flock) X(fsync) X(fdatasync) X(truncate) \
    X(ftruncate) X(getdents) X(getcwd) X(chdir) X(fchdir) X(rename) X(mkdir) X(rmdir) X(creat) \
    X(link) X(unlink) X(symlink) X(readlink) X(chmod) X(fchmod) X(chown) X(fchown) X(lchown) \
    X(umask) X(gettimeofday) X(getrlimit) X(getrusage) X(sysinfo) X(times) X(ptrace) X(getuid) \
    X(syslog) X(getgid) X(setuid) X(setgid) X(geteuid) X(getegid) X(setpgid) X(getppid) X(getpgrp) \
    X(setsid) X(setreuid) X(setregid) X(getgroups) X(setgroups) X(setresuid) X(getresuid) \
    X(setresgid) X(getresgid) X(getpgid) X(setfsuid) X(setfsgid) X(getsid) X(capget) X(capset) \
    X(rt_sigpending) X(rt_sigtimedwait) X(rt_sigqueueinfo) X(rt_sigsuspend) X(sigaltstack) \
    X(utime) X(mknod) X(uselib) X(personality) X(ustat) X(statfs) X(fstatfs) X(sysfs) \
    X(getpriority) X(setpriority) X(sched_setparam) X(sched_getparam) X(sched_setscheduler) \
    X(sched_getscheduler) X(sched_get_priority_max) X(sched_get_priority_min) \
    X(sched_rr_get_interval) X(mlock) X(munlock) X(mlockall) X(munlockall) X(vhangup) \
    X(modify_ldt) X(pivot_root) X(_sysctl) X(prctl) X(arch_prctl) X(adjtimex) X(setrlimit) \
    X(chroot) X(sync) X(acct) X(settimeofday) X(mount) X(umount2) X(swapon) X(swapoff) X(reboot) \
    X(sethostname) X(setdomainname) X(iopl) X(ioperm) X(create_module) X(init_module) \
    X(delete_module) X(get_kernel_syms) X(query_module) X(quotactl) X(nfsservctl) X(getpmsg) \
    X(putpmsg) X(afs_syscall) X(tuxcall) X(security) X(gettid) X(readahead) X(setxattr) \
    X(lsetxattr) X(fsetxattr) X(getxattr) X(lgetxattr) X(fgetxattr) X(listxattr) X(llistxattr) \
    X(flistxattr) X(removexattr) X(lremovexattr) X(fremovexattr) X(tkill) X(time) X(futex) \
    X(sched_setaffinity) X(sched_getaffinity) X(set_thread_area) X(io_setup) X(io_destroy) \
    X(io_getevents) X(io_submit) X(io_cancel) X(get_thread_area) X(lookup_dcookie) X(epoll_create) \
    X(epoll_ctl_old) X(epoll_wait_old) X(remap_file_pages) X(getdents64) X(set_tid_address) \
    X(restart_syscall) X(semtimedop) X(fadvise64) X(timer_create) X(timer_settime) \
    X(timer_gettime) X(timer_getoverrun) X(timer_delete) X(clock_settime) X(clock_gettime) \
    X(clock_getres) X(clock_nanosleep) X(exit_group) X(epoll_wait) X(epoll_ctl) X(tgkill) \
    X(utimes) X(vserver) X(mbind) X(set_mempolicy) X(get_mempolicy) X(mq_open) X(mq_unlink) \
    X(mq_timedsend) X(mq_timedreceive) X(mq_notify) X(mq_getsetattr) X(kexec_load) X(waitid) \
    X(add_key) X(request_key) X(keyctl) X(ioprio_set) X(ioprio_get) X(inotify_init) \
    X(inotify_add_watch) X(inotify_rm_watch) X(migrate_pages) X(openat) X(mkdirat) X(mknodat) \
    X(fchownat) X(futimesat) X(newfstatat) X(unlinkat) X(renameat) X(linkat) X(symlinkat) \
    X(readlinkat) X(fchmodat) X(faccessat) X(pselect6) X(ppoll) X(unshare) X(set_robust_list) \
    X(get_robust_list) X(splice) X(tee) X(sync_file_range) X(vmsplice) X(move_pages) X(utimensat) \
    X(epoll_pwait) X(signalfd) X(timerfd_create) X(eventfd) X(fallocate) X(timerfd_settime) \
    X(timerfd_gettime) X(accept4) X(signalfd4) X(eventfd2) X(epoll_create1) X(dup3) X(pipe2) \
    X(inotify_init1) X(preadv) X(pwritev) X(rt_tgsigqueueinfo) X(perf_event_open) X(recvmmsg) \
    X(fanotify_init) X(fanotify_mark) X(prlimit64) X(name_to_handle_at) X(open_by_handle_at) \
    X(clock_adjtime) X(syncfs) X(sendmmsg) X(setns) X(getcpu) X(process_vm_readv) \
    X(process_vm_writev) X(kcmp) X(finit_module) X(sched_setattr) X(sched_getattr) X(renameat2) \
    X(seccomp) X(getrandom) X(memfd_create) X(kexec_file_load) X(bpf) X(execveat) X(userfaultfd) \
    X(membarrier) X(mlock2) X(copy_file_range) X(preadv2) X(pwritev2) X(pkey_mprotect) \
    X(pkey_alloc) X(pkey_free) X(statx) X(io_pgetevents) X(rseq) X(pidfd_send_signal) \
    X(io_uring_setup) X(io_uring_enter) X(io_uring_register) X(open_tree) X(move_mount) X(fsopen) \
    X(fsconfig) X(fsmount) X(fspick) X(pidfd_open) X(clone3) X(close_range) X(openat2) \
    X(pidfd_getfd) X(faccessat2) X(process_madvise) X(epoll_pwait2) X(mount_setattr) \
    X(quotactl_fd) X(landlock_create_ruleset) X(landlock_add_rule) X(landlock_restrict_self) \
    X(memfd_secret) X(process_mrelease) X(futex_waitv) X(set_mempolicy_home_node)
// clang-format on

#define X(name) {__NR_##name, #name},
constexpr Expected kFromHeader[] = {SNARE_SYSCALLS_FROM_UNISTD_64(X)};
#undef X

// Added after Linux 6.1 (absent from the installed headers), up to Linux 6.18. uretprobe (335)
// arrived in 6.11 and uprobe (336) in 6.18 (QEMU's linux-headers update to v6.18-rc3 adds
// __NR_uprobe 336), so the unused x86-64 gap is 337..423.
constexpr Expected kNewer[] = {
    {335, "uretprobe"},         {336, "uprobe"},
    {451, "cachestat"},         {452, "fchmodat2"},
    {453, "map_shadow_stack"},  {454, "futex_wake"},
    {455, "futex_wait"},        {456, "futex_requeue"},
    {457, "statmount"},         {458, "listmount"},
    {459, "lsm_get_self_attr"}, {460, "lsm_set_self_attr"},
    {461, "lsm_list_modules"},  {462, "mseal"},
    {463, "setxattrat"},        {464, "getxattrat"},
    {465, "listxattrat"},       {466, "removexattrat"},
    {467, "open_tree_attr"},    {468, "file_getattr"},
    {469, "file_setattr"},
};

void ExpectEntry(const Expected& e) {
  const SyscallInfo* info = FindSyscall(static_cast<uint64_t>(e.nr));
  ASSERT_NE(info, nullptr) << e.name << " (" << e.nr << ") missing";
  EXPECT_EQ(info->nr, e.nr);
  EXPECT_STREQ(info->name, e.name) << "nr " << e.nr;
  EXPECT_EQ(FindSyscallByName(e.name), info) << e.name;
  EXPECT_STREQ(SyscallName(static_cast<uint64_t>(e.nr)), e.name);
}

TEST(SyscallTable, HasEverySyscallFromUnistd64) {
  static_assert(sizeof(kFromHeader) / sizeof(kFromHeader[0]) == 362);
  for (const Expected& e : kFromHeader) ExpectEntry(e);
}

TEST(SyscallTable, HasSyscallsNewerThanTheHeaders) {
  for (const Expected& e : kNewer) ExpectEntry(e);
}

TEST(SyscallTable, CountMatchesHeaderPlusNewer) {
  EXPECT_EQ(kSyscallCount, static_cast<int>(sizeof(kFromHeader) / sizeof(kFromHeader[0]) +
                                            sizeof(kNewer) / sizeof(kNewer[0])));
  EXPECT_EQ(kSyscallCount, 383);
}

TEST(SyscallTable, UnusedNumbersAreAbsent) {
  for (uint64_t nr = 337; nr <= 423; ++nr) {
    EXPECT_EQ(FindSyscall(nr), nullptr) << nr;
    EXPECT_EQ(SyscallName(nr), nullptr) << nr;
  }
  for (uint64_t nr = 470; nr < static_cast<uint64_t>(kSyscallLimit); ++nr) {
    EXPECT_EQ(FindSyscall(nr), nullptr) << nr;
  }
  for (int i = 0; i < kSyscallCount; ++i) {
    EXPECT_FALSE(kSyscalls[i].nr >= 337 && kSyscalls[i].nr <= 423) << kSyscalls[i].name;
  }
}

TEST(SyscallTable, SpotChecks) {
  ASSERT_NE(FindSyscallByName("getppid"), nullptr);
  EXPECT_EQ(FindSyscallByName("getppid")->nr, 110);
  ASSERT_NE(FindSyscallByName("mseal"), nullptr);
  EXPECT_EQ(FindSyscallByName("mseal")->nr, 462);
  ASSERT_NE(FindSyscallByName("openat"), nullptr);
  EXPECT_EQ(FindSyscallByName("openat")->nr, 257);
  ASSERT_NE(FindSyscallByName("_sysctl"), nullptr);
  EXPECT_EQ(FindSyscallByName("_sysctl")->nr, 156);
  EXPECT_STREQ(FindSyscall(262)->name, "newfstatat");
  EXPECT_STREQ(FindSyscall(0)->name, "read");
}

TEST(SyscallTable, LookupsOutOfRange) {
  EXPECT_EQ(FindSyscall(1000), nullptr);
  EXPECT_EQ(FindSyscall(static_cast<uint64_t>(-1)), nullptr);
  EXPECT_EQ(FindSyscall(static_cast<uint64_t>(kSyscallLimit)), nullptr);
  EXPECT_EQ(FindSyscall(uint64_t{1} << 32), nullptr);  // must not truncate to 0
  EXPECT_EQ(FindSyscall((uint64_t{1} << 32) | 257), nullptr);
  EXPECT_EQ(SyscallName(1000), nullptr);
}

TEST(SyscallTable, LookupByNameIsExact) {
  EXPECT_EQ(FindSyscallByName("no_such_syscall"), nullptr);
  EXPECT_EQ(FindSyscallByName(""), nullptr);
  EXPECT_EQ(FindSyscallByName("opena"), nullptr);
  EXPECT_EQ(FindSyscallByName("openat22"), nullptr);
  EXPECT_EQ(FindSyscallByName("OPENAT"), nullptr);
  EXPECT_EQ(FindSyscallByName(nullptr), nullptr);
  ASSERT_NE(FindSyscallByName("open"), nullptr);
  EXPECT_EQ(FindSyscallByName("open")->nr, 2);
  ASSERT_NE(FindSyscallByName("openat2"), nullptr);
  EXPECT_EQ(FindSyscallByName("openat2")->nr, 437);
}

TEST(SyscallTable, NamesNonEmptyUniqueSortedNargsBounded) {
  std::set<std::string> names;
  for (int i = 0; i < kSyscallCount; ++i) {
    const SyscallInfo& s = kSyscalls[i];
    ASSERT_NE(s.name, nullptr) << "nr " << s.nr;
    EXPECT_NE(s.name[0], '\0') << "nr " << s.nr;
    EXPECT_TRUE(names.insert(s.name).second) << "duplicate " << s.name;
    EXPECT_LE(s.nargs, 6) << s.name;
    EXPECT_LT(s.nr, kSyscallLimit) << s.name;
    if (i > 0) {
      EXPECT_LT(kSyscalls[i - 1].nr, s.nr) << s.name;
    }
    EXPECT_EQ(FindSyscall(s.nr), &s) << s.name;
    // Slots past nargs stay at their default.
    for (int a = s.nargs; a < 6; ++a) EXPECT_EQ(s.args[a], ArgKind::kInt) << s.name << " " << a;
  }
}

bool NameContainsAny(std::string_view name) {
  static constexpr std::string_view kPathSyscallWords[] = {
      "open",
      "stat",
      "exec",
      "access",
      "mkdir",
      "unlink",
      "rename",
      "link",
      "chdir",
      "chmod",
      "chown",
      "truncate",
      "mknod",
      "utime",
      "chroot",
      "xattr",
      "mount",
      "swap",
      "acct",
      "statfs",
      "creat",
      "rmdir",
      "fanotify_mark",
      "inotify_add_watch",
      "name_to_handle_at",
      "umount",
      "pivot_root",
      "quotactl",
      "uselib",
      // Not in the original list, but they take a pathname (dirfd + path, like fstatat).
      "fspick",
      "file_getattr",
      "file_setattr",
  };
  for (std::string_view word : kPathSyscallWords) {
    if (name.find(word) != std::string_view::npos) return true;
  }
  return false;
}

TEST(SyscallTable, PathArgumentsOnlyInPathSyscalls) {
  for (int i = 0; i < kSyscallCount; ++i) {
    const SyscallInfo& s = kSyscalls[i];
    for (int a = 0; a < s.nargs; ++a) {
      if (s.args[a] == ArgKind::kPath) {
        EXPECT_TRUE(NameContainsAny(s.name)) << s.name << " arg " << a << " is kPath";
      }
    }
  }
}

void ExpectArgs(const char* name, std::initializer_list<ArgKind> kinds) {
  const SyscallInfo* s = FindSyscallByName(name);
  ASSERT_NE(s, nullptr) << name;
  ASSERT_EQ(s->nargs, kinds.size()) << name;
  int a = 0;
  for (ArgKind k : kinds) {
    EXPECT_EQ(s->args[a], k) << name << " arg " << a;
    ++a;
  }
}

TEST(SyscallTable, ArgumentKinds) {
  using K = ArgKind;
  ExpectArgs("read", {K::kFd, K::kPtr, K::kUint});
  ExpectArgs("write", {K::kFd, K::kPtr, K::kUint});
  ExpectArgs("open", {K::kPath, K::kHex, K::kHex});
  ExpectArgs("openat", {K::kFd, K::kPath, K::kHex, K::kHex});
  ExpectArgs("openat2", {K::kFd, K::kPath, K::kPtr, K::kUint});
  ExpectArgs("close", {K::kFd});
  ExpectArgs("mmap", {K::kHex, K::kUint, K::kHex, K::kHex, K::kFd, K::kHex});
  ExpectArgs("execve", {K::kPath, K::kPtr, K::kPtr});
  ExpectArgs("execveat", {K::kFd, K::kPath, K::kPtr, K::kPtr, K::kHex});
  ExpectArgs("newfstatat", {K::kFd, K::kPath, K::kPtr, K::kHex});
  ExpectArgs("statx", {K::kFd, K::kPath, K::kHex, K::kHex, K::kPtr});
  ExpectArgs("renameat2", {K::kFd, K::kPath, K::kFd, K::kPath, K::kHex});
  ExpectArgs("rename", {K::kPath, K::kPath});
  ExpectArgs("symlinkat", {K::kPath, K::kFd, K::kPath});
  ExpectArgs("linkat", {K::kFd, K::kPath, K::kFd, K::kPath, K::kHex});
  ExpectArgs("readlinkat", {K::kFd, K::kPath, K::kPtr, K::kUint});
  ExpectArgs("getcwd", {K::kPtr, K::kUint});
  ExpectArgs("kill", {K::kInt, K::kSignal});
  ExpectArgs("tkill", {K::kInt, K::kSignal});
  ExpectArgs("tgkill", {K::kInt, K::kInt, K::kSignal});
  ExpectArgs("rt_sigaction", {K::kSignal, K::kPtr, K::kPtr, K::kUint});
  ExpectArgs("rt_sigqueueinfo", {K::kInt, K::kSignal, K::kPtr});
  ExpectArgs("rt_tgsigqueueinfo", {K::kInt, K::kInt, K::kSignal, K::kPtr});
  ExpectArgs("pidfd_send_signal", {K::kFd, K::kSignal, K::kPtr, K::kHex});
  ExpectArgs("dup2", {K::kFd, K::kFd});
  ExpectArgs("getppid", {});
  ExpectArgs("rt_sigreturn", {});
  ExpectArgs("uretprobe", {});
  ExpectArgs("mseal", {K::kHex, K::kUint, K::kHex});
  ExpectArgs("file_setattr", {K::kFd, K::kPath, K::kPtr, K::kUint, K::kHex});
  ExpectArgs("setxattrat", {K::kFd, K::kPath, K::kHex, K::kPtr, K::kPtr, K::kUint});
  ExpectArgs("mount", {K::kPath, K::kPath, K::kPtr, K::kHex, K::kPtr});
  ExpectArgs("fanotify_mark", {K::kFd, K::kHex, K::kHex, K::kFd, K::kPath});
  ExpectArgs("inotify_add_watch", {K::kFd, K::kPath, K::kHex});
}

TEST(SyscallTable, EverySyscallWithAPathnameHasAPathArgument) {
  const char* const kPathSyscalls[] = {
      "open",
      "stat",
      "lstat",
      "access",
      "truncate",
      "chdir",
      "rename",
      "mkdir",
      "rmdir",
      "creat",
      "link",
      "unlink",
      "symlink",
      "readlink",
      "chmod",
      "chown",
      "lchown",
      "utime",
      "mknod",
      "uselib",
      "statfs",
      "pivot_root",
      "chroot",
      "acct",
      "mount",
      "umount2",
      "swapon",
      "swapoff",
      "quotactl",
      "setxattr",
      "lsetxattr",
      "getxattr",
      "lgetxattr",
      "listxattr",
      "llistxattr",
      "removexattr",
      "lremovexattr",
      "utimes",
      "inotify_add_watch",
      "openat",
      "mkdirat",
      "mknodat",
      "fchownat",
      "futimesat",
      "newfstatat",
      "unlinkat",
      "renameat",
      "linkat",
      "symlinkat",
      "readlinkat",
      "fchmodat",
      "faccessat",
      "utimensat",
      "fanotify_mark",
      "name_to_handle_at",
      "renameat2",
      "execve",
      "execveat",
      "statx",
      "open_tree",
      "move_mount",
      "fspick",
      "openat2",
      "faccessat2",
      "mount_setattr",
      "fchmodat2",
      "setxattrat",
      "getxattrat",
      "listxattrat",
      "removexattrat",
      "open_tree_attr",
      "file_getattr",
      "file_setattr",
  };
  for (const char* name : kPathSyscalls) {
    const SyscallInfo* s = FindSyscallByName(name);
    ASSERT_NE(s, nullptr) << name;
    bool has_path = false;
    for (int a = 0; a < s->nargs; ++a) has_path |= s->args[a] == ArgKind::kPath;
    EXPECT_TRUE(has_path) << name;
  }
}

}  // namespace
}  // namespace snare::abi
