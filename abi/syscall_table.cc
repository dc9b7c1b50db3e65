// The x86-64 syscall table (Linux 6.18, arch/x86/entry/syscalls/syscall_64.tbl) as constant
// data, with a constant-time index by number. ABI facts only: what snare does with a call is
// policy (policy/default_policy.cc).
//
// Freestanding: this file is also compiled into the no-libc stub, so it uses no libc
// functions, allocates nothing, throws nothing and has no dynamic initializers. Everything
// below is constant-initialized; the static_asserts at the end check the table's shape at
// compile time.
//
// Argument kinds follow strace's rendering: file descriptors (including dirfds) are Fd,
// pathnames are Path, signal numbers are Sig, sizes and counts are Uint, pids, ids and plain
// ints are Int, flags, modes, masks and non-string addresses are Hex, other pointers are Ptr.
#include "abi/syscall_table.h"

#include <stdint.h>

namespace snare::abi {
namespace {

constexpr ArgKind Int = ArgKind::kInt;
constexpr ArgKind Uint = ArgKind::kUint;
constexpr ArgKind Hex = ArgKind::kHex;
constexpr ArgKind Fd = ArgKind::kFd;
constexpr ArgKind Path = ArgKind::kPath;
constexpr ArgKind Ptr = ArgKind::kPtr;
constexpr ArgKind Sig = ArgKind::kSignal;

// An entry; nargs is the number of kinds given.
template <typename... Kinds>
constexpr SyscallInfo Sys(uint16_t nr, const char* name, Kinds... kinds) {
  static_assert(sizeof...(Kinds) <= 6, "x86-64 syscalls take at most six arguments");
  return SyscallInfo{nr, name, static_cast<uint8_t>(sizeof...(Kinds)), {kinds...}};
}

}  // namespace

// Declared extern in the header, so this constexpr definition has external linkage.
constexpr SyscallInfo kSyscalls[] = {
    Sys(0, "read", Fd, Ptr, Uint),
    Sys(1, "write", Fd, Ptr, Uint),
    Sys(2, "open", Path, Hex, Hex),
    Sys(3, "close", Fd),
    Sys(4, "stat", Path, Ptr),
    Sys(5, "fstat", Fd, Ptr),
    Sys(6, "lstat", Path, Ptr),
    Sys(7, "poll", Ptr, Uint, Int),
    Sys(8, "lseek", Fd, Int, Int),
    Sys(9, "mmap", Hex, Uint, Hex, Hex, Fd, Hex),
    Sys(10, "mprotect", Hex, Uint, Hex),
    Sys(11, "munmap", Hex, Uint),
    Sys(12, "brk", Hex),
    Sys(13, "rt_sigaction", Sig, Ptr, Ptr, Uint),
    Sys(14, "rt_sigprocmask", Int, Ptr, Ptr, Uint),
    Sys(15, "rt_sigreturn"),
    Sys(16, "ioctl", Fd, Hex, Hex),
    Sys(17, "pread64", Fd, Ptr, Uint, Int),
    Sys(18, "pwrite64", Fd, Ptr, Uint, Int),
    Sys(19, "readv", Fd, Ptr, Uint),
    Sys(20, "writev", Fd, Ptr, Uint),
    Sys(21, "access", Path, Hex),
    Sys(22, "pipe", Ptr),
    Sys(23, "select", Int, Ptr, Ptr, Ptr, Ptr),
    Sys(24, "sched_yield"),
    Sys(25, "mremap", Hex, Uint, Uint, Hex, Hex),
    Sys(26, "msync", Hex, Uint, Hex),
    Sys(27, "mincore", Hex, Uint, Ptr),
    Sys(28, "madvise", Hex, Uint, Int),
    Sys(29, "shmget", Hex, Uint, Hex),
    Sys(30, "shmat", Int, Hex, Hex),
    Sys(31, "shmctl", Int, Int, Ptr),
    Sys(32, "dup", Fd),
    Sys(33, "dup2", Fd, Fd),
    Sys(34, "pause"),
    Sys(35, "nanosleep", Ptr, Ptr),
    Sys(36, "getitimer", Int, Ptr),
    Sys(37, "alarm", Uint),
    Sys(38, "setitimer", Int, Ptr, Ptr),
    Sys(39, "getpid"),
    Sys(40, "sendfile", Fd, Fd, Ptr, Uint),
    Sys(41, "socket", Int, Hex, Int),
    Sys(42, "connect", Fd, Ptr, Uint),
    Sys(43, "accept", Fd, Ptr, Ptr),
    Sys(44, "sendto", Fd, Ptr, Uint, Hex, Ptr, Uint),
    Sys(45, "recvfrom", Fd, Ptr, Uint, Hex, Ptr, Ptr),
    Sys(46, "sendmsg", Fd, Ptr, Hex),
    Sys(47, "recvmsg", Fd, Ptr, Hex),
    Sys(48, "shutdown", Fd, Int),
    Sys(49, "bind", Fd, Ptr, Uint),
    Sys(50, "listen", Fd, Int),
    Sys(51, "getsockname", Fd, Ptr, Ptr),
    Sys(52, "getpeername", Fd, Ptr, Ptr),
    Sys(53, "socketpair", Int, Hex, Int, Ptr),
    Sys(54, "setsockopt", Fd, Int, Int, Ptr, Uint),
    Sys(55, "getsockopt", Fd, Int, Int, Ptr, Ptr),
    Sys(56, "clone", Hex, Hex, Ptr, Ptr, Hex),
    Sys(57, "fork"),
    Sys(58, "vfork"),
    Sys(59, "execve", Path, Ptr, Ptr),
    Sys(60, "exit", Int),
    Sys(61, "wait4", Int, Ptr, Hex, Ptr),
    Sys(62, "kill", Int, Sig),
    Sys(63, "uname", Ptr),
    Sys(64, "semget", Hex, Int, Hex),
    Sys(65, "semop", Int, Ptr, Uint),
    Sys(66, "semctl", Int, Int, Int, Hex),
    Sys(67, "shmdt", Hex),
    Sys(68, "msgget", Hex, Hex),
    Sys(69, "msgsnd", Int, Ptr, Uint, Hex),
    Sys(70, "msgrcv", Int, Ptr, Uint, Int, Hex),
    Sys(71, "msgctl", Int, Int, Ptr),
    Sys(72, "fcntl", Fd, Int, Hex),
    Sys(73, "flock", Fd, Hex),
    Sys(74, "fsync", Fd),
    Sys(75, "fdatasync", Fd),
    Sys(76, "truncate", Path, Int),
    Sys(77, "ftruncate", Fd, Int),
    Sys(78, "getdents", Fd, Ptr, Uint),
    Sys(79, "getcwd", Ptr, Uint),
    Sys(80, "chdir", Path),
    Sys(81, "fchdir", Fd),
    Sys(82, "rename", Path, Path),
    Sys(83, "mkdir", Path, Hex),
    Sys(84, "rmdir", Path),
    Sys(85, "creat", Path, Hex),
    Sys(86, "link", Path, Path),
    Sys(87, "unlink", Path),
    Sys(88, "symlink", Path, Path),
    Sys(89, "readlink", Path, Ptr, Uint),
    Sys(90, "chmod", Path, Hex),
    Sys(91, "fchmod", Fd, Hex),
    Sys(92, "chown", Path, Int, Int),
    Sys(93, "fchown", Fd, Int, Int),
    Sys(94, "lchown", Path, Int, Int),
    Sys(95, "umask", Hex),
    Sys(96, "gettimeofday", Ptr, Ptr),
    Sys(97, "getrlimit", Int, Ptr),
    Sys(98, "getrusage", Int, Ptr),
    Sys(99, "sysinfo", Ptr),
    Sys(100, "times", Ptr),
    Sys(101, "ptrace", Int, Int, Hex, Hex),
    Sys(102, "getuid"),
    Sys(103, "syslog", Int, Ptr, Int),
    Sys(104, "getgid"),
    Sys(105, "setuid", Int),
    Sys(106, "setgid", Int),
    Sys(107, "geteuid"),
    Sys(108, "getegid"),
    Sys(109, "setpgid", Int, Int),
    Sys(110, "getppid"),
    Sys(111, "getpgrp"),
    Sys(112, "setsid"),
    Sys(113, "setreuid", Int, Int),
    Sys(114, "setregid", Int, Int),
    Sys(115, "getgroups", Int, Ptr),
    Sys(116, "setgroups", Int, Ptr),
    Sys(117, "setresuid", Int, Int, Int),
    Sys(118, "getresuid", Ptr, Ptr, Ptr),
    Sys(119, "setresgid", Int, Int, Int),
    Sys(120, "getresgid", Ptr, Ptr, Ptr),
    Sys(121, "getpgid", Int),
    Sys(122, "setfsuid", Int),
    Sys(123, "setfsgid", Int),
    Sys(124, "getsid", Int),
    Sys(125, "capget", Ptr, Ptr),
    Sys(126, "capset", Ptr, Ptr),
    Sys(127, "rt_sigpending", Ptr, Uint),
    Sys(128, "rt_sigtimedwait", Ptr, Ptr, Ptr, Uint),
    Sys(129, "rt_sigqueueinfo", Int, Sig, Ptr),
    Sys(130, "rt_sigsuspend", Ptr, Uint),
    Sys(131, "sigaltstack", Ptr, Ptr),
    Sys(132, "utime", Path, Ptr),
    Sys(133, "mknod", Path, Hex, Hex),
    Sys(134, "uselib", Path),
    Sys(135, "personality", Hex),
    Sys(136, "ustat", Hex, Ptr),
    Sys(137, "statfs", Path, Ptr),
    Sys(138, "fstatfs", Fd, Ptr),
    Sys(139, "sysfs", Int, Hex, Hex),
    Sys(140, "getpriority", Int, Int),
    Sys(141, "setpriority", Int, Int, Int),
    Sys(142, "sched_setparam", Int, Ptr),
    Sys(143, "sched_getparam", Int, Ptr),
    Sys(144, "sched_setscheduler", Int, Int, Ptr),
    Sys(145, "sched_getscheduler", Int),
    Sys(146, "sched_get_priority_max", Int),
    Sys(147, "sched_get_priority_min", Int),
    Sys(148, "sched_rr_get_interval", Int, Ptr),
    Sys(149, "mlock", Hex, Uint),
    Sys(150, "munlock", Hex, Uint),
    Sys(151, "mlockall", Hex),
    Sys(152, "munlockall"),
    Sys(153, "vhangup"),
    Sys(154, "modify_ldt", Int, Ptr, Uint),
    Sys(155, "pivot_root", Path, Path),
    Sys(156, "_sysctl", Ptr),
    Sys(157, "prctl", Int, Hex, Hex, Hex, Hex),
    Sys(158, "arch_prctl", Int, Hex),
    Sys(159, "adjtimex", Ptr),
    Sys(160, "setrlimit", Int, Ptr),
    Sys(161, "chroot", Path),
    Sys(162, "sync"),
    Sys(163, "acct", Path),
    Sys(164, "settimeofday", Ptr, Ptr),
    Sys(165, "mount", Path, Path, Ptr, Hex, Ptr),
    Sys(166, "umount2", Path, Hex),
    Sys(167, "swapon", Path, Hex),
    Sys(168, "swapoff", Path),
    Sys(169, "reboot", Hex, Hex, Hex, Ptr),
    Sys(170, "sethostname", Ptr, Uint),
    Sys(171, "setdomainname", Ptr, Uint),
    Sys(172, "iopl", Int),
    Sys(173, "ioperm", Hex, Uint, Int),
    Sys(174, "create_module", Ptr, Uint),
    Sys(175, "init_module", Ptr, Uint, Ptr),
    Sys(176, "delete_module", Ptr, Hex),
    Sys(177, "get_kernel_syms", Ptr),
    Sys(178, "query_module", Ptr, Int, Ptr, Uint, Ptr),
    Sys(179, "quotactl", Hex, Path, Int, Ptr),
    Sys(180, "nfsservctl", Int, Ptr, Ptr),
    Sys(181, "getpmsg", Fd, Ptr, Ptr, Ptr, Ptr),
    Sys(182, "putpmsg", Fd, Ptr, Ptr, Int, Hex),
    Sys(183, "afs_syscall", Hex, Hex, Hex, Hex, Hex),
    Sys(184, "tuxcall", Hex, Hex, Hex),
    Sys(185, "security", Hex, Hex, Hex),
    Sys(186, "gettid"),
    Sys(187, "readahead", Fd, Int, Uint),
    Sys(188, "setxattr", Path, Ptr, Ptr, Uint, Hex),
    Sys(189, "lsetxattr", Path, Ptr, Ptr, Uint, Hex),
    Sys(190, "fsetxattr", Fd, Ptr, Ptr, Uint, Hex),
    Sys(191, "getxattr", Path, Ptr, Ptr, Uint),
    Sys(192, "lgetxattr", Path, Ptr, Ptr, Uint),
    Sys(193, "fgetxattr", Fd, Ptr, Ptr, Uint),
    Sys(194, "listxattr", Path, Ptr, Uint),
    Sys(195, "llistxattr", Path, Ptr, Uint),
    Sys(196, "flistxattr", Fd, Ptr, Uint),
    Sys(197, "removexattr", Path, Ptr),
    Sys(198, "lremovexattr", Path, Ptr),
    Sys(199, "fremovexattr", Fd, Ptr),
    Sys(200, "tkill", Int, Sig),
    Sys(201, "time", Ptr),
    Sys(202, "futex", Ptr, Int, Int, Ptr, Ptr, Hex),
    Sys(203, "sched_setaffinity", Int, Uint, Ptr),
    Sys(204, "sched_getaffinity", Int, Uint, Ptr),
    Sys(205, "set_thread_area", Ptr),
    Sys(206, "io_setup", Uint, Ptr),
    Sys(207, "io_destroy", Hex),
    Sys(208, "io_getevents", Hex, Int, Int, Ptr, Ptr),
    Sys(209, "io_submit", Hex, Int, Ptr),
    Sys(210, "io_cancel", Hex, Ptr, Ptr),
    Sys(211, "get_thread_area", Ptr),
    Sys(212, "lookup_dcookie", Hex, Ptr, Uint),
    Sys(213, "epoll_create", Int),
    Sys(214, "epoll_ctl_old", Fd, Int, Fd, Ptr),
    Sys(215, "epoll_wait_old", Fd, Ptr, Int, Int),
    Sys(216, "remap_file_pages", Hex, Uint, Hex, Uint, Hex),
    Sys(217, "getdents64", Fd, Ptr, Uint),
    Sys(218, "set_tid_address", Ptr),
    Sys(219, "restart_syscall"),
    Sys(220, "semtimedop", Int, Ptr, Uint, Ptr),
    Sys(221, "fadvise64", Fd, Int, Uint, Int),
    Sys(222, "timer_create", Int, Ptr, Ptr),
    Sys(223, "timer_settime", Int, Hex, Ptr, Ptr),
    Sys(224, "timer_gettime", Int, Ptr),
    Sys(225, "timer_getoverrun", Int),
    Sys(226, "timer_delete", Int),
    Sys(227, "clock_settime", Int, Ptr),
    Sys(228, "clock_gettime", Int, Ptr),
    Sys(229, "clock_getres", Int, Ptr),
    Sys(230, "clock_nanosleep", Int, Hex, Ptr, Ptr),
    Sys(231, "exit_group", Int),
    Sys(232, "epoll_wait", Fd, Ptr, Int, Int),
    Sys(233, "epoll_ctl", Fd, Int, Fd, Ptr),
    Sys(234, "tgkill", Int, Int, Sig),
    Sys(235, "utimes", Path, Ptr),
    Sys(236, "vserver", Hex, Hex, Hex, Hex, Hex),
    Sys(237, "mbind", Hex, Uint, Int, Ptr, Uint, Hex),
    Sys(238, "set_mempolicy", Int, Ptr, Uint),
    Sys(239, "get_mempolicy", Ptr, Ptr, Uint, Hex, Hex),
    Sys(240, "mq_open", Ptr, Hex, Hex, Ptr),
    Sys(241, "mq_unlink", Ptr),
    Sys(242, "mq_timedsend", Fd, Ptr, Uint, Uint, Ptr),
    Sys(243, "mq_timedreceive", Fd, Ptr, Uint, Ptr, Ptr),
    Sys(244, "mq_notify", Fd, Ptr),
    Sys(245, "mq_getsetattr", Fd, Ptr, Ptr),
    Sys(246, "kexec_load", Hex, Uint, Ptr, Hex),
    Sys(247, "waitid", Int, Int, Ptr, Hex, Ptr),
    Sys(248, "add_key", Ptr, Ptr, Ptr, Uint, Int),
    Sys(249, "request_key", Ptr, Ptr, Ptr, Int),
    Sys(250, "keyctl", Int, Hex, Hex, Hex, Hex),
    Sys(251, "ioprio_set", Int, Int, Hex),
    Sys(252, "ioprio_get", Int, Int),
    Sys(253, "inotify_init"),
    Sys(254, "inotify_add_watch", Fd, Path, Hex),
    Sys(255, "inotify_rm_watch", Fd, Int),
    Sys(256, "migrate_pages", Int, Uint, Ptr, Ptr),
    Sys(257, "openat", Fd, Path, Hex, Hex),
    Sys(258, "mkdirat", Fd, Path, Hex),
    Sys(259, "mknodat", Fd, Path, Hex, Hex),
    Sys(260, "fchownat", Fd, Path, Int, Int, Hex),
    Sys(261, "futimesat", Fd, Path, Ptr),
    Sys(262, "newfstatat", Fd, Path, Ptr, Hex),
    Sys(263, "unlinkat", Fd, Path, Hex),
    Sys(264, "renameat", Fd, Path, Fd, Path),
    Sys(265, "linkat", Fd, Path, Fd, Path, Hex),
    Sys(266, "symlinkat", Path, Fd, Path),
    Sys(267, "readlinkat", Fd, Path, Ptr, Uint),
    Sys(268, "fchmodat", Fd, Path, Hex),
    Sys(269, "faccessat", Fd, Path, Hex),
    Sys(270, "pselect6", Int, Ptr, Ptr, Ptr, Ptr, Ptr),
    Sys(271, "ppoll", Ptr, Uint, Ptr, Ptr, Uint),
    Sys(272, "unshare", Hex),
    Sys(273, "set_robust_list", Ptr, Uint),
    Sys(274, "get_robust_list", Int, Ptr, Ptr),
    Sys(275, "splice", Fd, Ptr, Fd, Ptr, Uint, Hex),
    Sys(276, "tee", Fd, Fd, Uint, Hex),
    Sys(277, "sync_file_range", Fd, Int, Uint, Hex),
    Sys(278, "vmsplice", Fd, Ptr, Uint, Hex),
    Sys(279, "move_pages", Int, Uint, Ptr, Ptr, Ptr, Hex),
    Sys(280, "utimensat", Fd, Path, Ptr, Hex),
    Sys(281, "epoll_pwait", Fd, Ptr, Int, Int, Ptr, Uint),
    Sys(282, "signalfd", Fd, Ptr, Uint),
    Sys(283, "timerfd_create", Int, Hex),
    Sys(284, "eventfd", Uint),
    Sys(285, "fallocate", Fd, Hex, Int, Int),
    Sys(286, "timerfd_settime", Fd, Hex, Ptr, Ptr),
    Sys(287, "timerfd_gettime", Fd, Ptr),
    Sys(288, "accept4", Fd, Ptr, Ptr, Hex),
    Sys(289, "signalfd4", Fd, Ptr, Uint, Hex),
    Sys(290, "eventfd2", Uint, Hex),
    Sys(291, "epoll_create1", Hex),
    Sys(292, "dup3", Fd, Fd, Hex),
    Sys(293, "pipe2", Ptr, Hex),
    Sys(294, "inotify_init1", Hex),
    Sys(295, "preadv", Fd, Ptr, Uint, Int, Int),
    Sys(296, "pwritev", Fd, Ptr, Uint, Int, Int),
    Sys(297, "rt_tgsigqueueinfo", Int, Int, Sig, Ptr),
    Sys(298, "perf_event_open", Ptr, Int, Int, Fd, Hex),
    Sys(299, "recvmmsg", Fd, Ptr, Uint, Hex, Ptr),
    Sys(300, "fanotify_init", Hex, Hex),
    Sys(301, "fanotify_mark", Fd, Hex, Hex, Fd, Path),
    Sys(302, "prlimit64", Int, Int, Ptr, Ptr),
    Sys(303, "name_to_handle_at", Fd, Path, Ptr, Ptr, Hex),
    Sys(304, "open_by_handle_at", Fd, Ptr, Hex),
    Sys(305, "clock_adjtime", Int, Ptr),
    Sys(306, "syncfs", Fd),
    Sys(307, "sendmmsg", Fd, Ptr, Uint, Hex),
    Sys(308, "setns", Fd, Hex),
    Sys(309, "getcpu", Ptr, Ptr, Ptr),
    Sys(310, "process_vm_readv", Int, Ptr, Uint, Ptr, Uint, Hex),
    Sys(311, "process_vm_writev", Int, Ptr, Uint, Ptr, Uint, Hex),
    Sys(312, "kcmp", Int, Int, Int, Hex, Hex),
    Sys(313, "finit_module", Fd, Ptr, Hex),
    Sys(314, "sched_setattr", Int, Ptr, Hex),
    Sys(315, "sched_getattr", Int, Ptr, Uint, Hex),
    Sys(316, "renameat2", Fd, Path, Fd, Path, Hex),
    Sys(317, "seccomp", Int, Hex, Ptr),
    Sys(318, "getrandom", Ptr, Uint, Hex),
    Sys(319, "memfd_create", Ptr, Hex),
    Sys(320, "kexec_file_load", Fd, Fd, Uint, Ptr, Hex),
    Sys(321, "bpf", Int, Ptr, Uint),
    Sys(322, "execveat", Fd, Path, Ptr, Ptr, Hex),
    Sys(323, "userfaultfd", Hex),
    Sys(324, "membarrier", Int, Hex, Int),
    Sys(325, "mlock2", Hex, Uint, Hex),
    Sys(326, "copy_file_range", Fd, Ptr, Fd, Ptr, Uint, Hex),
    Sys(327, "preadv2", Fd, Ptr, Uint, Int, Int, Hex),
    Sys(328, "pwritev2", Fd, Ptr, Uint, Int, Int, Hex),
    Sys(329, "pkey_mprotect", Hex, Uint, Hex, Int),
    Sys(330, "pkey_alloc", Hex, Hex),
    Sys(331, "pkey_free", Int),
    Sys(332, "statx", Fd, Path, Hex, Hex, Ptr),
    Sys(333, "io_pgetevents", Hex, Int, Int, Ptr, Ptr, Ptr),
    Sys(334, "rseq", Ptr, Uint, Hex, Hex),
    Sys(335, "uretprobe"),  // Linux 6.11
    Sys(336, "uprobe"),     // Linux 6.18
    // 337..423 are unused on x86-64; 451 and up are newer than the Linux 6.1 UAPI headers.
    Sys(424, "pidfd_send_signal", Fd, Sig, Ptr, Hex),
    Sys(425, "io_uring_setup", Uint, Ptr),
    Sys(426, "io_uring_enter", Fd, Uint, Uint, Hex, Ptr, Uint),
    Sys(427, "io_uring_register", Fd, Uint, Ptr, Uint),
    Sys(428, "open_tree", Fd, Path, Hex),
    Sys(429, "move_mount", Fd, Path, Fd, Path, Hex),
    Sys(430, "fsopen", Ptr, Hex),
    Sys(431, "fsconfig", Fd, Int, Ptr, Ptr, Int),
    Sys(432, "fsmount", Fd, Hex, Hex),
    Sys(433, "fspick", Fd, Path, Hex),
    Sys(434, "pidfd_open", Int, Hex),
    Sys(435, "clone3", Ptr, Uint),
    Sys(436, "close_range", Fd, Uint, Hex),
    Sys(437, "openat2", Fd, Path, Ptr, Uint),
    Sys(438, "pidfd_getfd", Fd, Int, Hex),
    Sys(439, "faccessat2", Fd, Path, Hex, Hex),
    Sys(440, "process_madvise", Fd, Ptr, Uint, Int, Hex),
    Sys(441, "epoll_pwait2", Fd, Ptr, Int, Ptr, Ptr, Uint),
    Sys(442, "mount_setattr", Fd, Path, Hex, Ptr, Uint),
    Sys(443, "quotactl_fd", Fd, Hex, Int, Ptr),
    Sys(444, "landlock_create_ruleset", Ptr, Uint, Hex),
    Sys(445, "landlock_add_rule", Fd, Int, Ptr, Hex),
    Sys(446, "landlock_restrict_self", Fd, Hex),
    Sys(447, "memfd_secret", Hex),
    Sys(448, "process_mrelease", Fd, Hex),
    Sys(449, "futex_waitv", Ptr, Uint, Hex, Ptr, Int),
    Sys(450, "set_mempolicy_home_node", Hex, Uint, Int, Hex),
    Sys(451, "cachestat", Fd, Ptr, Ptr, Hex),
    Sys(452, "fchmodat2", Fd, Path, Hex, Hex),
    Sys(453, "map_shadow_stack", Hex, Uint, Hex),
    Sys(454, "futex_wake", Ptr, Hex, Int, Hex),
    Sys(455, "futex_wait", Ptr, Int, Hex, Hex, Ptr, Int),
    Sys(456, "futex_requeue", Ptr, Hex, Int, Int),
    Sys(457, "statmount", Ptr, Ptr, Uint, Hex),
    Sys(458, "listmount", Ptr, Ptr, Uint, Hex),
    Sys(459, "lsm_get_self_attr", Int, Ptr, Ptr, Hex),
    Sys(460, "lsm_set_self_attr", Int, Ptr, Uint, Hex),
    Sys(461, "lsm_list_modules", Ptr, Ptr, Hex),
    Sys(462, "mseal", Hex, Uint, Hex),
    Sys(463, "setxattrat", Fd, Path, Hex, Ptr, Ptr, Uint),
    Sys(464, "getxattrat", Fd, Path, Hex, Ptr, Ptr, Uint),
    Sys(465, "listxattrat", Fd, Path, Hex, Ptr, Uint),
    Sys(466, "removexattrat", Fd, Path, Hex, Ptr),
    Sys(467, "open_tree_attr", Fd, Path, Hex, Ptr, Uint),
    Sys(468, "file_getattr", Fd, Path, Ptr, Uint, Hex),
    Sys(469, "file_setattr", Fd, Path, Ptr, Uint, Hex),
};

constexpr int kSyscallCount = sizeof(kSyscalls) / sizeof(kSyscalls[0]);

namespace {

// Compile-time checks of the table's shape.
constexpr bool SortedUniqueInRange() {
  for (int i = 0; i < kSyscallCount; ++i) {
    if (kSyscalls[i].nr >= kSyscallLimit) return false;
    if (i > 0 && kSyscalls[i - 1].nr >= kSyscalls[i].nr) return false;
  }
  return true;
}

constexpr bool WellFormed() {
  for (int i = 0; i < kSyscallCount; ++i) {
    const SyscallInfo& s = kSyscalls[i];
    if (s.name == nullptr || s.name[0] == '\0' || s.nargs > 6) return false;
  }
  return true;
}

constexpr bool NamesEqual(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

constexpr bool NamesUnique() {
  for (int i = 0; i < kSyscallCount; ++i) {
    for (int j = i + 1; j < kSyscallCount; ++j) {
      if (NamesEqual(kSyscalls[i].name, kSyscalls[j].name)) return false;
    }
  }
  return true;
}

static_assert(SortedUniqueInRange(), "kSyscalls must be sorted by nr, unique, nr < kSyscallLimit");
static_assert(WellFormed(), "every entry needs a name and nargs <= 6");
static_assert(NamesUnique(), "syscall names must be unique");
static_assert(kSyscallCount == 383, "x86-64 on Linux 6.18: 0..336 and 424..469");
static_assert(kSyscalls[kSyscallCount - 1].nr == 469, "last entry is file_setattr");

// Number -> index into kSyscalls, -1 where the number is not a syscall.
struct SyscallIndex {
  int16_t slot[kSyscallLimit];
};

constexpr SyscallIndex BuildIndex() {
  SyscallIndex index{};
  for (int nr = 0; nr < kSyscallLimit; ++nr) index.slot[nr] = -1;
  for (int i = 0; i < kSyscallCount; ++i) index.slot[kSyscalls[i].nr] = static_cast<int16_t>(i);
  return index;
}

static constexpr SyscallIndex kIndex = BuildIndex();

static_assert(kIndex.slot[0] == 0 && kIndex.slot[469] == kSyscallCount - 1);
static_assert(kIndex.slot[400] == -1);

}  // namespace

const SyscallInfo* FindSyscall(uint64_t nr) {
  if (nr >= static_cast<uint64_t>(kSyscallLimit)) return nullptr;
  const int16_t i = kIndex.slot[nr];
  return i < 0 ? nullptr : &kSyscalls[i];
}

const SyscallInfo* FindSyscallByName(const char* name) {
  if (name == nullptr) return nullptr;
  for (int i = 0; i < kSyscallCount; ++i) {
    if (NamesEqual(kSyscalls[i].name, name)) return &kSyscalls[i];
  }
  return nullptr;
}

}  // namespace snare::abi
