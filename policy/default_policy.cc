#include "policy/default_policy.h"

#include <asm/unistd.h>
#include <sys/prctl.h>

#include <cerrno>

namespace snare::policy {
namespace {

// Privileged or process-escaping calls: EPERM, what an unprivileged caller gets.
constexpr const char* kDeniedEperm[] = {
    "ptrace",
    "syslog",
    "vhangup",
    "pivot_root",
    "adjtimex",
    "acct",
    "settimeofday",
    "mount",
    "umount2",
    "swapon",
    "swapoff",
    "reboot",
    "iopl",
    "ioperm",
    "init_module",
    "delete_module",
    "quotactl",
    "lookup_dcookie",
    "clock_settime",
    "kexec_load",
    "perf_event_open",
    "clock_adjtime",
    "process_vm_writev",
    "finit_module",
    "kexec_file_load",
    "bpf",
    "userfaultfd",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "mount_setattr",
    "open_tree_attr",
};

// Obsolete calls: ENOSYS.
constexpr const char* kDeniedEnosys[] = {
    "uselib",  "_sysctl", "create_module", "get_kernel_syms", "query_module", "nfsservctl",
    "getpmsg", "putpmsg", "afs_syscall",   "tuxcall",         "security",     "vserver",
};

// io_uring: its submissions would bypass the trap. ENOSYS.
constexpr const char* kIoUring[] = {"io_uring_setup", "io_uring_enter", "io_uring_register"};

}  // namespace

PolicyBuilder InterpositionPolicy() {
  PolicyBuilder b;
  for (const char* name : kIoUring) b.DenyByName(name, ENOSYS);
  b.SetByName("uname", {Action::kBroker, 0});
  // Syscall user dispatch would turn the stub's own calls (outside the range the guest
  // allows) into SIGSYS as well, and the guest would hang in its handler: EINVAL, what a
  // kernel without it answers.
  b.When(__NR_prctl, {ArgInt32Eq(0, PR_SET_SYSCALL_USER_DISPATCH)}, {Action::kDeny, EINVAL});
  return b;
}

PolicyBuilder DefaultPolicy() {
  PolicyBuilder b = InterpositionPolicy();
  for (const char* name : kDeniedEperm) b.DenyByName(name, EPERM);
  for (const char* name : kDeniedEnosys) b.DenyByName(name, ENOSYS);
  return b;
}

}  // namespace snare::policy
