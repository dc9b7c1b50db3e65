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
#include "platform/systrap/sysmsg/stub_rodata.h"
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
constexpr uint64_t kRodata = 0x7e0000006400;
constexpr uint64_t kStubIp = 0x7e0000002000;
constexpr uint64_t kAtEmptyPath = 0x1000;

StubLayout TestLayout() {
  StubLayout layout;
  layout.text_start = kTextStart;
  layout.text_end = kTextEnd;
  layout.empty_path = kEmptyPath;
  layout.rodata = kRodata;
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
    auto program = BuildSeccompProgram(layout, guest_, options_);
    if (!program) {
      ADD_FAILURE() << "BuildSeccompProgram: " << program.error();
      return "build failed";
    }
    BpfResult r = RunBpf(*program, data);
    if (!r.ok) {
      ADD_FAILURE() << "interpreter: " << r.error;
      return "interpreter failed";
    }
    // Only SECCOMP_RET_ERRNO carries data: the errno.
    if ((r.action & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO) {
      return "ERRNO " + std::to_string(r.action & SECCOMP_RET_DATA);
    }
    EXPECT_EQ(r.action & SECCOMP_RET_DATA, 0u) << ActionName(r.action);
    return ActionName(r.action);
  }

  policy::PolicyTable guest_;
  StubRangeOptions options_;
};

TEST_F(SeccompProgramTest, FitsTheKernelLimits) {
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  EXPECT_GT(program->size(), 14u);  // the prologue plus the compiled stub-range policy
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

// What the kernel's seccomp action cache asks of a filter (seccomp_is_const_allow): that
// it allows the call knowing only the architecture and the number.
bool AllowedByNumberAlone(const std::vector<sock_filter>& program, uint32_t nr) {
  uint32_t a = 0;
  for (size_t pc = 0; pc < program.size(); ++pc) {
    const sock_filter& insn = program[pc];
    switch (insn.code) {
      case BPF_LD | BPF_W | BPF_ABS:
        if (insn.k == offsetof(seccomp_data, arch)) {
          a = AUDIT_ARCH_X86_64;
        } else if (insn.k == offsetof(seccomp_data, nr)) {
          a = nr;
        } else {
          return false;
        }
        break;
      case BPF_JMP | BPF_JA:
        pc += insn.k;
        break;
      case BPF_JMP | BPF_JEQ | BPF_K:
        pc += a == insn.k ? insn.jt : insn.jf;
        break;
      case BPF_JMP | BPF_JGE | BPF_K:
        pc += a >= insn.k ? insn.jt : insn.jf;
        break;
      case BPF_JMP | BPF_JGT | BPF_K:
        pc += a > insn.k ? insn.jt : insn.jf;
        break;
      case BPF_RET | BPF_K:
        return insn.k == SECCOMP_RET_ALLOW;
      default:
        return false;
    }
  }
  return false;
}

TEST_F(SeccompProgramTest, SigreturnTheGuestMayMakeIsDecidedByNumberAlone) {
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  EXPECT_TRUE(AllowedByNumberAlone(*program, SYS_rt_sigreturn));
  EXPECT_EQ(Run(Call(SYS_rt_sigreturn, 0x401000)), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_rt_sigreturn, kStubIp)), "ALLOW");
  // Every other call depends on where it was made.
  for (int nr : {SYS_getppid, SYS_read, SYS_exit_group, SYS_rt_sigaction}) {
    EXPECT_FALSE(AllowedByNumberAlone(*program, nr)) << nr;
  }
}

TEST_F(SeccompProgramTest, SigreturnTrapsWhenThePolicySaysOtherwise) {
  Use(DefaultPolicy().Deny(SYS_rt_sigreturn, 1));
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  EXPECT_FALSE(AllowedByNumberAlone(*program, SYS_rt_sigreturn));
  EXPECT_EQ(Run(Call(SYS_rt_sigreturn, 0x401000)), "TRAP");
  // The stub's restorer still returns from the traps.
  EXPECT_EQ(Run(Call(SYS_rt_sigreturn, kStubIp)), "ALLOW");
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
// (a stale accumulator after the first comparison); policy/bpf_compiler compiles it.
TEST_F(SeccompProgramTest, StubMayCloseRangesBesideReservedFds) {
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, 1000, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {3, kFirstReservedFd - 1, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {1100, 2000, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_close_range, kStubIp, {kLastReservedFd + 1, 0xffffffffu, 0})), "ALLOW");
}

TEST_F(SeccompProgramTest, StubMayNotPtrace) {
  EXPECT_EQ(Run(Call(SYS_ptrace, kStubIp, {16 /* PTRACE_ATTACH */, 1})), "KILL_PROCESS");
}

// A denied call made from the stub's text fails as it would for the guest; a killed one kills.
TEST_F(SeccompProgramTest, DeniedByDefaultFailsFromTheStubToo) {
  ASSERT_EQ(guest_.entries[SYS_reboot].fallback.action, Action::kDeny);
  ASSERT_EQ(guest_.entries[SYS_init_module].fallback.action, Action::kDeny);
  EXPECT_EQ(Run(Call(SYS_reboot, kStubIp)), "ERRNO 1");
  EXPECT_EQ(Run(Call(SYS_init_module, kStubIp)), "ERRNO 1");
  EXPECT_EQ(Run(Call(SYS_bpf, kStubIp)), "ERRNO 1");
  EXPECT_EQ(Run(Call(SYS_io_uring_setup, kStubIp)), "ERRNO 38");
}

TEST_F(SeccompProgramTest, EveryDeniedOrKilledSyscallStaysSoFromTheStub) {
  Use(DefaultPolicy().Kill(SYS_mkdir).Kill(SYS_getppid).Deny(SYS_mkdirat, 13));
  auto program = BuildSeccompProgram(TestLayout(), guest_);
  ASSERT_TRUE(program) << program.error();
  int checked = 0;
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    if (!FindSyscall(static_cast<uint64_t>(nr))) continue;
    const policy::Disposition d = guest_.entries[nr].fallback;
    if (d.action != Action::kDeny && d.action != Action::kKill) continue;
    SCOPED_TRACE(FindSyscall(static_cast<uint64_t>(nr))->name);
    BpfResult r = RunBpf(*program, Call(nr, kStubIp, {0x401000, 0x402000, 0, 0, 0, 0}));
    ASSERT_TRUE(r.ok) << r.error;
    if (d.action == Action::kKill || nr == SYS_ptrace) {  // ptrace: killed from the stub
      EXPECT_EQ(ActionName(r.action), "KILL_PROCESS");
    } else {
      EXPECT_EQ(r.action, SECCOMP_RET_ERRNO | d.err);
    }
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

TEST_F(SeccompProgramTest, OverriddenRulesApplyFromTheStub) {
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");
  Use(DefaultPolicy().Deny(SYS_getppid, 13));
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ERRNO 13");
  EXPECT_EQ(Run(Call(SYS_getppid, 0x401000)), "TRAP");

  Use(DefaultPolicy().Kill(SYS_mkdir));
  EXPECT_EQ(Run(Call(SYS_mkdir, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");

  // A denied call that also has stub-range rules (dup2 onto reserved fds) compiles.
  Use(DefaultPolicy().Deny(SYS_dup2, 13));
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, 4})), "ERRNO 13");
  EXPECT_EQ(Run(Call(SYS_dup2, kStubIp, {3, kStubFd})), "KILL_PROCESS");
}

// The guest's argument rules hold for the stub's text as well: a reply changed in the
// shared region after the sentry decided cannot turn an allowed call into a refused one.
TEST_F(SeccompProgramTest, GuestArgumentRulesApplyFromTheStub) {
  Use(DefaultPolicy().When(SYS_ioctl, {policy::ArgInt32Eq(1, 0x5412 /* TIOCSTI */)},
                           {Action::kDeny, 1}));
  EXPECT_EQ(Run(Call(SYS_ioctl, kStubIp, {0, 0x5412, 0x401000})), "ERRNO 1");
  EXPECT_EQ(Run(Call(SYS_ioctl, kStubIp, {0, 0x5401 /* TCGETS */, 0x401000})), "ALLOW");
}

TEST_F(SeccompProgramTest, BrokeredSyscallsAreTheSentrys) {
  ASSERT_EQ(guest_.entries[SYS_uname].fallback.action, Action::kBroker);
  EXPECT_EQ(Run(Call(SYS_uname, kStubIp)), "KILL_PROCESS");
  options_.stub_runs_brokered_calls = true;  // inproc: the stub is the sentry
  EXPECT_EQ(Run(Call(SYS_uname, kStubIp)), "ALLOW");
}

// The guest's policy refuses each of these; the stub's own use of it still runs (pinned),
// and the same call with the guest's own arguments does not.
TEST_F(SeccompProgramTest, StubOwnCallsSurviveAPolicyThatDeniesThem) {
  PolicyBuilder b = DefaultPolicy();
  for (int nr :
       {SYS_futex,       SYS_kill,       SYS_tgkill,   SYS_rt_sigaction, SYS_rt_sigprocmask,
        SYS_sigaltstack, SYS_arch_prctl, SYS_readlink, SYS_prctl,        SYS_openat,
        SYS_statx,       SYS_faccessat2, SYS_fcntl,    SYS_mmap,         462 /* mseal */,
        SYS_write,       SYS_getpid,     SYS_gettid,   SYS_close,        SYS_sched_yield,
        SYS_exit_group}) {
    b.Deny(nr, 13);
  }
  Use(b);
  constexpr uint64_t kGuestPtr = 0x401000;
  struct Case {
    int nr;
    std::initializer_list<uint64_t> stub_args;
    std::initializer_list<uint64_t> guest_args;
  };
  const Case cases[] = {
      {SYS_futex, {kSharedBase + 0x40, 0, 1}, {kGuestPtr, 0, 1}},
      {SYS_kill, {1234, 0}, {1234, 9}},
      {SYS_tgkill, {12, 12, 31}, {12, 12, 9}},
      {SYS_rt_sigaction, {31, kRodata + kRodataSigsysAction, 0, 8}, {10, kGuestPtr, 0, 8}},
      {SYS_rt_sigaction, {31, kRodata + kRodataDefaultAction, 0, 8}, {31, 0, kGuestPtr, 8}},
      {SYS_rt_sigprocmask, {1, kRodata + kRodataSigsysSet, 0, 8}, {1, kGuestPtr, 0, 8}},
      {SYS_rt_sigprocmask, {0, 0, kGuestPtr, 8}, {0, kGuestPtr, 0, 8}},
      {SYS_sigaltstack, {0, kGuestPtr}, {kGuestPtr, 0}},
      {SYS_arch_prctl, {0x1001 /* SET_GS */, kSharedBase + 0x1000}, {0x1002 /* SET_FS */, 0}},
      {SYS_readlink, {kRodata + kRodataThreadSelf, kGuestPtr, 63}, {kGuestPtr, kGuestPtr, 63}},
      {SYS_prctl, {21 /* PR_GET_SECCOMP */}, {22 /* PR_SET_SECCOMP */}},
      {SYS_prctl, {15 /* PR_SET_NAME */, kGuestPtr}, {4 /* PR_SET_DUMPABLE */, 1}},
      {SYS_openat,
       {static_cast<uint64_t>(-100), kRodata + kRodataSelfStat, 0},
       {static_cast<uint64_t>(-100), kGuestPtr, 0}},
      {SYS_openat,
       {static_cast<uint64_t>(-100), kRodata + kRodataSelfStat, 0},
       {static_cast<uint64_t>(-100), kRodata + kRodataSelfStat, 01 /* O_WRONLY */}},
      {SYS_statx, {3, kEmptyPath, 0x1000, 0x3, kGuestPtr}, {3, kGuestPtr, 0, 0x3, kGuestPtr}},
      {SYS_faccessat2, {3, kEmptyPath, 1, 0x1200}, {-100ull, kGuestPtr, 1, 0}},
      {SYS_fcntl, {5, 0 /* F_DUPFD */, 3}, {5, 4 /* F_SETFL */, 0x800}},
      {SYS_mmap,
       {kSharedBase, kRegionSize, 3, 0x100001 /* SHARED|FIXED_NOREPLACE */, kSharedFd, 0},
       {0, 4096, 3, 0x22, ~0ull, 0}},
      {SYS_mmap,
       {kStubBase + 0x1000, 0x5000, 5, 0x11 /* SHARED|FIXED */, kStubFd, 0x1000},
       {0, 0x5000, 5, 0x2 /* PRIVATE */, 3, 0}},
      {462, {kStubBase, 0x20000, 0}, {kGuestPtr, 4096, 0}},
      {SYS_write, {kTraceFd, kGuestPtr, 10}, {2, kGuestPtr, 10}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(FindSyscall(static_cast<uint64_t>(c.nr))->name);
    EXPECT_EQ(Run(Call(c.nr, kStubIp, c.stub_args)), "ALLOW");
    EXPECT_EQ(Run(Call(c.nr, kStubIp, c.guest_args)), "ERRNO 13");
  }
  for (int nr : {SYS_getpid, SYS_gettid, SYS_close, SYS_sched_yield, SYS_exit_group}) {
    EXPECT_EQ(Run(Call(nr, kStubIp, {5})), "ALLOW") << nr;
  }
}

// What a guest that took over the stub's text tries first.
TEST_F(SeccompProgramTest, HijackedStubCannotTakeSigsysOrTheReservedFds) {
  // Its own SIGSYS handler, or the stub's constants moved by one byte.
  EXPECT_EQ(Run(Call(SYS_rt_sigaction, kStubIp, {31, 0x401000, 0, 8})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_rt_sigaction, kStubIp, {31, kRodata + kRodataSigsysAction + 1, 0, 8})),
            "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_rt_sigaction, kStubIp, {31, kRodata + kRodataSigsysAction, 0x401000, 8})),
            "KILL_PROCESS");
  // Another slot for its GS base through the syscall (wrgsbase needs none: README).
  EXPECT_EQ(Run(Call(SYS_arch_prctl, kStubIp, {0x1001, 0x401000})), "KILL_PROCESS");
  // The region fd mapped elsewhere, made close-on-exec, or the stub fd through ioctl.
  EXPECT_EQ(Run(Call(SYS_mmap, kStubIp, {0, kRegionSize, 3, 1 /* SHARED */, kSharedFd, 0})),
            "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_fcntl, kStubIp, {kSharedFd, 2 /* F_SETFD */, 1})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_ioctl, kStubIp, {kStubFd, 0x5451 /* FIOCLEX */})), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_ftruncate, kStubIp, {kSharedFd, 0})), "KILL_PROCESS");
  // The stub's text mapped writable.
  EXPECT_EQ(Run(Call(SYS_mmap, kStubIp, {kStubBase + 0x1000, 0x5000, 7, 0x11, kStubFd, 0x1000})),
            "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, NoExecOfTheStubForAGuestThatMayNotExec) {
  const seccomp_data exec_stub =
      Call(SYS_execveat, kStubIp, {kStubFd, kEmptyPath, 0x1000, 0x2000, kAtEmptyPath});
  EXPECT_EQ(Run(exec_stub), "ALLOW");
  Use(DefaultPolicy().Deny(SYS_execve, 13).Kill(SYS_execveat));
  EXPECT_EQ(Run(exec_stub), "KILL_PROCESS");
  Use(DefaultPolicy().Deny(SYS_execve, 13));  // execveat still allowed: the stub execs itself
  EXPECT_EQ(Run(exec_stub), "ALLOW");
}

// --notify=openat: the guest's opens and the stub's (an exec's) go to the sentry through the
// kernel; the stub's pinned calls and everything else keep their path.
TEST_F(SeccompProgramTest, NotifiedCallsReachTheSentryFromAnywhere) {
  Use(DefaultPolicy().Set(SYS_openat, {Action::kNotify, 0}).Set(SYS_open, {Action::kNotify, 0}));
  const std::initializer_list<uint64_t> open_args = {static_cast<uint64_t>(-100), 0x401000, 0};
  EXPECT_EQ(Run(Call(SYS_openat, 0x401000, open_args)), "USER_NOTIF");
  EXPECT_EQ(Run(Call(SYS_open, 0x401000, {0x401000, 0})), "USER_NOTIF");
  EXPECT_EQ(Run(Call(SYS_openat, kStubIp, open_args)), "USER_NOTIF");
  EXPECT_EQ(
      Run(Call(SYS_openat, kStubIp, {static_cast<uint64_t>(-100), kRodata + kRodataSelfStat, 0})),
      "ALLOW");
  EXPECT_EQ(Run(Call(SYS_getppid, 0x401000)), "TRAP");
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_read, 0x7e0000000fff)), "TRAP");
  EXPECT_EQ(Run(Call(SYS_openat, kTextEnd, open_args)), "USER_NOTIF");
  // The listener's hand-over: from the stub only.
  EXPECT_EQ(Run(Call(SYS_sendmsg, kStubIp, {kNotifySocketFd, 0x401000, 0})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_sendmsg, 0x401000, {kNotifySocketFd, 0x401000, 0})), "TRAP");
  // Then the stub stacks the filter that closes it, from its sealed data only.
  EXPECT_EQ(Run(Call(SYS_seccomp, kStubIp, {1, 0, kRodata + kRodataCloseHandoverProg})), "ALLOW");
  EXPECT_EQ(Run(Call(SYS_seccomp, kStubIp, {1, 0, 0x401000})), "ALLOW")
      << "the guest's policy allows seccomp: a stacked filter only restricts";
  // Other ABIs still die first.
  EXPECT_EQ(Run(Call(SYS_openat, 0x401000, open_args, AUDIT_ARCH_I386)), "KILL_PROCESS");
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

// Every syscall the guest makes runs this program, and a passthrough runs it twice (trapped
// at the guest's instruction, allowed at the stub's): the common calls' paths through it stay
// short however many rules the policy grows.
TEST_F(SeccompProgramTest, CommonCallsTakeShortPathsThroughTheProgram) {
  auto program = BuildSeccompProgram(TestLayout(), guest_, options_);
  ASSERT_TRUE(program) << program.error();
  for (int nr : {SYS_getppid, SYS_read, SYS_write, SYS_openat, SYS_close, SYS_newfstatat, SYS_futex,
                 SYS_mmap}) {
    const BpfResult trapped = RunBpf(*program, Call(nr, 0x401000));
    const BpfResult passed = RunBpf(*program, Call(nr, kStubIp, {0, 0, 0, 0x22, ~0ull, 0}));
    ASSERT_TRUE(trapped.ok && passed.ok) << trapped.error << passed.error;
    EXPECT_LE(trapped.steps, 12u) << "syscall " << nr << " from the guest";
    EXPECT_LE(passed.steps, 40u) << "syscall " << nr << " from the stub";
  }
}

}  // namespace
}  // namespace snare::systrap
