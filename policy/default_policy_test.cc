#include "policy/default_policy.h"

#include <asm/unistd.h>
#include <sys/prctl.h>

#include <cerrno>
#include <set>
#include <string>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"
#include "policy/evaluator.h"

namespace snare::policy {
namespace {

// The expected defaults, written out independently of default_policy.cc.
TEST(DefaultPolicyTest, Dispositions) {
  const std::set<std::string> eperm = {
      "ptrace",
      "process_vm_writev",
      "kexec_load",
      "kexec_file_load",
      "reboot",
      "init_module",
      "finit_module",
      "delete_module",
      "swapon",
      "swapoff",
      "iopl",
      "ioperm",
      "bpf",
      "acct",
      "settimeofday",
      "clock_settime",
      "clock_adjtime",
      "adjtimex",
      "syslog",
      "quotactl",
      "lookup_dcookie",
      "vhangup",
      "pivot_root",
      "mount",
      "umount2",
      "fsopen",
      "fsmount",
      "fsconfig",
      "move_mount",
      "open_tree",
      "open_tree_attr",
      "mount_setattr",
      "perf_event_open",
      "userfaultfd",
  };
  const std::set<std::string> enosys = {
      "io_uring_setup",  "io_uring_enter", "io_uring_register", "uselib",  "create_module",
      "get_kernel_syms", "query_module",   "nfsservctl",        "getpmsg", "putpmsg",
      "afs_syscall",     "tuxcall",        "security",          "vserver", "_sysctl",
  };
  auto table = DefaultPolicy().TryBuild();
  ASSERT_TRUE(table) << table.error();
  int seen_eperm = 0, seen_enosys = 0, seen_broker = 0;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const abi::SyscallInfo& s = abi::kSyscalls[i];
    const std::string name = s.name;
    const SyscallEntry& e = table->entries[s.nr];
    EXPECT_EQ(e.rule_count, name == "prctl" ? 1 : 0) << name;
    if (eperm.count(name)) {
      ++seen_eperm;
      EXPECT_EQ(e.fallback, (Disposition{Action::kDeny, EPERM})) << name;
    } else if (enosys.count(name)) {
      ++seen_enosys;
      EXPECT_EQ(e.fallback, (Disposition{Action::kDeny, ENOSYS})) << name;
    } else if (name == "uname") {
      ++seen_broker;
      EXPECT_EQ(e.fallback.action, Action::kBroker);
    } else {
      EXPECT_EQ(e.fallback.action, Action::kPassthrough) << name;
    }
  }
  EXPECT_EQ(seen_eperm, static_cast<int>(eperm.size()));
  EXPECT_EQ(seen_enosys, static_cast<int>(enosys.size()));
  EXPECT_EQ(seen_broker, 1);
}

// Syscall user dispatch is refused (it would turn the stub's own calls into SIGSYS); other
// prctl options pass.
TEST(DefaultPolicyTest, NoSyscallUserDispatch) {
  auto table = DefaultPolicy().TryBuild();
  ASSERT_TRUE(table) << table.error();
  uint64_t dispatch[6] = {PR_SET_SYSCALL_USER_DISPATCH, 1, 0, 0, 0, 0};
  EXPECT_EQ(Evaluate(*table, __NR_prctl, dispatch), (Disposition{Action::kDeny, EINVAL}));
  uint64_t name[6] = {PR_SET_NAME, 0, 0, 0, 0, 0};
  EXPECT_EQ(Evaluate(*table, __NR_prctl, name).action, Action::kPassthrough);
}

// The container profile's base: the engine decides everything but io_uring, syscall user
// dispatch and uname, which the interposition itself needs.
TEST(InterpositionPolicyTest, RefusesOnlyWhatTheTrapNeeds) {
  auto table = InterpositionPolicy().TryBuild();
  ASSERT_TRUE(table) << table.error();
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const abi::SyscallInfo& s = abi::kSyscalls[i];
    const std::string name = s.name;
    const SyscallEntry& e = table->entries[s.nr];
    if (name.starts_with("io_uring_")) {
      EXPECT_EQ(e.fallback, (Disposition{Action::kDeny, ENOSYS})) << name;
    } else if (name == "uname") {
      EXPECT_EQ(e.fallback.action, Action::kBroker);
    } else {
      EXPECT_EQ(e.fallback.action, Action::kPassthrough) << name;
    }
  }
  uint64_t dispatch[6] = {PR_SET_SYSCALL_USER_DISPATCH, 1, 0, 0, 0, 0};
  EXPECT_EQ(Evaluate(*table, __NR_prctl, dispatch), (Disposition{Action::kDeny, EINVAL}));
}

}  // namespace
}  // namespace snare::policy
