#include "platform/systrap/seccomp_program.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"
#include "platform/systrap/stub_image.h"
#include "platform/systrap/sysmsg/shared_region.h"
#include "policy/bpf_interpreter.h"
#include "policy/default_policy.h"

namespace snare::systrap {
namespace {

using abi::FindSyscall;
using abi::kSyscallLimit;
using policy::Action;
using policy::BpfResult;
using policy::DefaultPolicy;
using policy::PolicyBuilder;
using policy::RunBpf;

std::string ActionName(uint32_t action) { return policy::SeccompActionName(action); }

// The stub's text lies in [text_start, text_end); everything else is the guest's.
constexpr uint64_t kTextStart = 0x7e0000001000;
constexpr uint64_t kTextEnd = 0x7e0000005000;
constexpr uint64_t kEmptyPath = 0x7e0000006340;
constexpr uint64_t kStubIp = 0x7e0000002000;
constexpr uint64_t kAtEmptyPath = 0x1000;

StubLayout TestLayout() {
  StubLayout layout;
  layout.text_start = kTextStart;
  layout.text_end = kTextEnd;
  layout.empty_path = kEmptyPath;
  layout.image_end = 0x7e0000007000;
  return layout;
}

seccomp_data Call(int nr, uint64_t ip, std::initializer_list<uint64_t> args = {},
                  uint32_t arch = AUDIT_ARCH_X86_64) {
  seccomp_data data = {};
  data.nr = nr;
  data.arch = arch;
  data.instruction_pointer = ip;
  size_t i = 0;
  for (uint64_t arg : args) data.args[i++] = arg;
  return data;
}

class SeccompProgramTest : public ::testing::Test {
 protected:
  void SetUp() override { Use(DefaultPolicy()); }

  void Use(const PolicyBuilder& builder) {
    auto table = builder.TryBuild();
    ASSERT_TRUE(table) << table.error();
    guest_ = *table;
  }

  // Builds the program from guest_ and runs it; the action as a name for readable failures.
  std::string Run(const seccomp_data& data) { return Run(TestLayout(), data); }

  std::string Run(const StubLayout& layout, const seccomp_data& data) {
    auto program = BuildSeccompProgram(layout, guest_);
    if (!program) {
      ADD_FAILURE() << "BuildSeccompProgram: " << program.error();
      return "build failed";
    }
    BpfResult r = RunBpf(*program, data);
    if (!r.ok) {
      ADD_FAILURE() << "interpreter: " << r.error;
      return "interpreter failed";
    }
    // SECCOMP_RET_TRAP and SECCOMP_RET_KILL_PROCESS carry no data in this filter.
    EXPECT_EQ(r.action & SECCOMP_RET_DATA, 0u) << ActionName(r.action);
    return ActionName(r.action);
  }

  policy::PolicyTable guest_;
};

TEST_F(SeccompProgramTest, FitsTheKernelLimits) {
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  EXPECT_GT(program->size(), 11u);  // the prologue plus libseccomp's part
  EXPECT_LE(program->size(), size_t{BPF_MAXINSNS});
  EXPECT_LE(program->size(), size_t{kMaxFilter});
}

TEST_F(SeccompProgramTest, GuestCallsTrap) {
  const uint64_t guest_ips[] = {
      0x401000,        // a non-PIE guest
      0x7f0000001000,  // a shared library
      0x7e0000000fff,  // one byte below the stub's text
      kTextEnd,        // the first byte past it
      0x7e0000005001,
      0x7d0000002000,  // the stub IP's low 32 bits in another 4 GiB window
      0x7f0000002000, 0x0000000000002000, 0xffffffff00002000,
  };
  const int calls[] = {SYS_getppid, SYS_read,  SYS_execve, SYS_ptrace,
                       SYS_reboot,  SYS_close, SYS_dup2,   SYS_execveat};
  for (uint64_t ip : guest_ips) {
    for (int nr : calls) {
      SCOPED_TRACE(testing::Message() << "ip 0x" << std::hex << ip << std::dec << " nr " << nr);
      EXPECT_EQ(Run(Call(nr, ip, {kStubFd, kStubFd})), "TRAP");
    }
  }
}

TEST_F(SeccompProgramTest, StubCallsAreAllowed) {
  const uint64_t stub_ips[] = {kTextStart, kStubIp, kTextEnd - 1};
  for (uint64_t ip : stub_ips) {
    SCOPED_TRACE(testing::Message() << "ip 0x" << std::hex << ip);
    EXPECT_EQ(Run(Call(SYS_getppid, ip)), "ALLOW");
    EXPECT_EQ(Run(Call(SYS_read, ip, {0, 0x1000, 10})), "ALLOW");
    EXPECT_EQ(Run(Call(SYS_futex, ip, {0x7e0100000000, 0, 1})), "ALLOW");
    EXPECT_EQ(Run(Call(SYS_mmap, ip, {0, 4096, 3, 0x22, ~0ull, 0})), "ALLOW");
    EXPECT_EQ(Run(Call(SYS_rt_sigreturn, ip)), "ALLOW");
  }
}

TEST_F(SeccompProgramTest, OtherArchitecturesDie) {
  for (uint64_t ip : {uint64_t{0x401000}, kStubIp}) {
    SCOPED_TRACE(testing::Message() << "ip 0x" << std::hex << ip);
    EXPECT_EQ(Run(Call(SYS_getppid, ip, {}, AUDIT_ARCH_I386)), "KILL_PROCESS");
    EXPECT_EQ(Run(Call(64 /* getppid on i386 */, ip, {}, AUDIT_ARCH_I386)), "KILL_PROCESS");
    EXPECT_EQ(Run(Call(SYS_getppid, ip, {}, AUDIT_ARCH_AARCH64)), "KILL_PROCESS");
  }
}

TEST_F(SeccompProgramTest, X32CallsFromTheStubDie) {
  constexpr int kX32Bit = 0x40000000;
  EXPECT_EQ(Run(Call(kX32Bit | SYS_write, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(kX32Bit | SYS_getppid, kStubIp)), "KILL_PROCESS");
  // From the guest they trap; the sentry answers -ENOSYS for numbers not in its table.
  EXPECT_EQ(Run(Call(kX32Bit | SYS_write, 0x401000)), "TRAP");
}

TEST_F(SeccompProgramTest, StubMayOnlyExecItself) {
  EXPECT_EQ(Run(Call(SYS_execve, kStubIp, {0x7e0000006000, 0, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath, 0x1000, 0x2000, kAtEmptyPath})),
            "ALLOW");
  // Another fd, including one whose low 32 bits are the stub's.
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {3, kEmptyPath, 0, 0, kAtEmptyPath})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kSharedFd, kEmptyPath, 0, 0, kAtEmptyPath})),
            "KILL_PROCESS");
  EXPECT_EQ(
      Run(Call(SYS_execveat, kStubIp, {(1ull << 32) | kStubFd, kEmptyPath, 0, 0, kAtEmptyPath})),
      "KILL_PROCESS");
  // Another path pointer.
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath + 1, 0, 0, kAtEmptyPath})),
            "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kStubFd, 0x401000, 0, 0, kAtEmptyPath})),
            "KILL_PROCESS");
  EXPECT_EQ(
      Run(Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath | (1ull << 48), 0, 0, kAtEmptyPath})),
      "KILL_PROCESS");
  // Other flags.
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath, 0, 0, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath, 0, 0, kAtEmptyPath | 0x100})),
            "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, StubMayNotCloseReservedFds) {
  for (uint64_t fd = kFirstReservedFd; fd <= kLastReservedFd; ++fd) {
    SCOPED_TRACE(fd);
    EXPECT_EQ(Run(Call(SYS_close, kStubIp, {fd})), "KILL_PROCESS");
    // The kernel reads an int: the upper 32 bits do not matter.
    EXPECT_EQ(Run(Call(SYS_close, kStubIp, {(1ull << 32) | fd})), "KILL_PROCESS");
    EXPECT_EQ(Run(Call(SYS_close, kStubIp, {0xffffffff00000000ull | fd})), "KILL_PROCESS");
  }
  EXPECT_EQ(Run(Call(SYS_close, kStubIp, {0x1000003FDull})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close, kStubIp, {5})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close, kStubIp, {kFirstReservedFd - 1})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close, kStubIp, {kLastReservedFd + 1})), "ALLOW");
}

TEST_F(SeccompProgramTest, StubMayNotDupOntoReservedFds) {
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, kStubFd})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, kTraceFd})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, (1ull << 32) | kSharedFd})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup3, kStubIp, {3, kSharedFd, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup3, kStubIp, {3, kStubFd, 0x80000 /* O_CLOEXEC */})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, 4})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_dup3, kStubIp, {3, 4, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_dup, kStubIp, {3})), "ALLOW");
}

TEST_F(SeccompProgramTest, StubMayNotCloseRangesOverReservedFds) {
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, 0xffffffffu, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {0, 0xffffffffu, 4 /* CLOEXEC */})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {kStubFd, kStubFd, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {kLastReservedFd, 2000, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, kFirstReservedFd, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, 1ull << 32, 0})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {1ull << 32, 5, 0})), "KILL_PROCESS");
}

// The stub's own split close_range calls ([3, 1019] and [1023, ~0u] for a guest's
// close_range(3, ~0u)) must pass. libseccomp 2.5.4 compiled the two-argument rule wrongly
// (a stale accumulator after the first comparison), so this check is hand-written BPF.
TEST_F(SeccompProgramTest, StubMayCloseRangesBesideReservedFds) {
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, 1000, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, kFirstReservedFd - 1, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {1100, 2000, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {kLastReservedFd + 1, 0xffffffffu, 0})), "ALLOW");
}

TEST_F(SeccompProgramTest, StubMayNotPtrace) {
  EXPECT_EQ(Run(Call(SYS_ptrace, kStubIp, {16 /* PTRACE_ATTACH */, 1})), "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, DeniedByDefaultDiesFromTheStub) {
  ASSERT_EQ(guest_.entries[SYS_reboot].fallback.action, Action::kDeny);
  ASSERT_EQ(guest_.entries[SYS_init_module].fallback.action, Action::kDeny);
  EXPECT_EQ(Run(Call(SYS_reboot, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_init_module, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_bpf, kStubIp)), "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, EveryDeniedSyscallDiesFromTheStub) {
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    if (!FindSyscall(static_cast<uint64_t>(nr))) continue;
    Action d = guest_.entries[nr].fallback.action;
    if (d != Action::kDeny && d != Action::kKill) continue;
    SCOPED_TRACE(FindSyscall(static_cast<uint64_t>(nr))->name);
    BpfResult r = RunBpf(*program, Call(nr, kStubIp));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(ActionName(r.action), "KILL_PROCESS");
  }
}

TEST_F(SeccompProgramTest, OverriddenRulesDieFromTheStub) {
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");
  Use(DefaultPolicy().Deny(SYS_getppid, 13));
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_getppid, 0x401000)), "TRAP");

  Use(DefaultPolicy().Kill(SYS_getpid));
  EXPECT_EQ(Run(Call(SYS_getpid, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");

  // A denied call that also has stub-range rules (dup2 onto reserved fds) compiles.
  Use(DefaultPolicy().Deny(SYS_dup2, 13));
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, 4})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, kStubFd})), "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, BrokeredSyscallsRunFromTheStub) {
  ASSERT_EQ(guest_.entries[SYS_uname].fallback.action, Action::kBroker);
  EXPECT_EQ(Run(Call(SYS_uname, kStubIp)), "ALLOW");
}

TEST_F(SeccompProgramTest, RejectsTextAcrossA4GiBBoundary) {
  StubLayout layout = TestLayout();
  layout.text_start = 0x7e00fffff000;
  layout.text_end = 0x7e0100001000;
  auto program = BuildSeccompProgram(layout, guest_);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().find("4 GiB"), std::string::npos) << program.error();
}

TEST_F(SeccompProgramTest, TextInAnotherWindow) {
  StubLayout layout = TestLayout();
  layout.text_start = 0x5555'0000'1000;
  layout.text_end = 0x5555'0000'3000;
  EXPECT_EQ(Run(layout, Call(SYS_getppid, 0x5555'0000'2000)), "ALLOW");
  EXPECT_EQ(Run(layout, Call(SYS_getppid, kStubIp)), "TRAP");
}

// A text segment ending exactly on a 4 GiB boundary still allows its last instruction
// (the low word of text_end is 0 there: compare against text_end - 1).
TEST_F(SeccompProgramTest, TextEndingOnA4GiBBoundary) {
  StubLayout layout = TestLayout();
  layout.text_start = 0x7e00ffffe000;
  layout.text_end = 0x7e0100000000;
  EXPECT_EQ(Run(layout, Call(SYS_getppid, 0x7e00fffff000)), "ALLOW");
  EXPECT_EQ(Run(layout, Call(SYS_getppid, 0x7e0100000000)), "TRAP");
  EXPECT_EQ(Run(layout, Call(SYS_getppid, 0x7e00ffffdfff)), "TRAP");
}

}  // namespace
}  // namespace snare::systrap
