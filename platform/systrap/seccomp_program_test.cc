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

#include "gtest/gtest.h"
#include "platform/systrap/shared_region.h"
#include "platform/systrap/stub_image.h"
#include "sentry/syscall_policy.h"
#include "sentry/syscall_table.h"

namespace snare::systrap {
namespace {

// The result of running a program: the value of its RET, or an error that names the
// offending instruction (an opcode the kernel's seccomp checker would reject, a load out of
// seccomp_data, a jump out of the program, falling off its end).
struct RunResult {
  bool ok = false;
  uint32_t action = 0;
  std::string error;
};

// A classic-BPF interpreter for seccomp programs, after gVisor's pkg/bpf interpreter. It
// accepts exactly the instructions seccomp_check_filter() (kernel/seccomp.c) accepts and
// fails loudly on anything else.
RunResult RunSeccomp(const std::vector<sock_filter>& program, const seccomp_data& data) {
  RunResult result;
  auto fail = [&](size_t pc, const char* what) {
    char buf[160];
    std::snprintf(
        buf, sizeof(buf), "pc %zu: %s (code 0x%04x, jt %u, jf %u, k 0x%08x)", pc, what,
        pc < program.size() ? program[pc].code : 0, pc < program.size() ? program[pc].jt : 0,
        pc < program.size() ? program[pc].jf : 0, pc < program.size() ? program[pc].k : 0);
    result.error = buf;
    return result;
  };
  if (program.empty() || program.size() > BPF_MAXINSNS) return fail(0, "bad program length");
  uint32_t a = 0;
  uint32_t x = 0;
  uint32_t mem[BPF_MEMWORDS] = {};
  bool mem_valid[BPF_MEMWORDS] = {};
  size_t pc = 0;
  // Each instruction runs at most once: every jump goes forward.
  for (size_t steps = 0; steps <= program.size(); ++steps) {
    if (pc >= program.size()) return fail(pc, "fell off the end of the program");
    const sock_filter& in = program[pc];
    const uint16_t code = in.code;
    const uint32_t k = in.k;
    switch (BPF_CLASS(code)) {
      case BPF_LD:
      case BPF_LDX: {
        uint32_t value;
        if (code == (BPF_LD | BPF_W | BPF_ABS)) {
          if (k % 4 != 0 || k + 4 > sizeof(seccomp_data))
            return fail(pc, "load outside seccomp_data");
          std::memcpy(&value, reinterpret_cast<const char*>(&data) + k, 4);
        } else if (code == (BPF_LD | BPF_W | BPF_LEN) || code == (BPF_LDX | BPF_W | BPF_LEN)) {
          value = sizeof(seccomp_data);
        } else if (code == (BPF_LD | BPF_IMM) || code == (BPF_LDX | BPF_IMM)) {
          value = k;
        } else if (code == (BPF_LD | BPF_MEM) || code == (BPF_LDX | BPF_MEM)) {
          if (k >= BPF_MEMWORDS) return fail(pc, "scratch index out of range");
          if (!mem_valid[k]) return fail(pc, "load from unwritten scratch memory");
          value = mem[k];
        } else {
          return fail(pc, "load the seccomp checker rejects");
        }
        (BPF_CLASS(code) == BPF_LD ? a : x) = value;
        ++pc;
        break;
      }
      case BPF_ST:
      case BPF_STX:
        if (code != BPF_ST && code != BPF_STX) return fail(pc, "unknown store");
        if (k >= BPF_MEMWORDS) return fail(pc, "scratch index out of range");
        mem[k] = BPF_CLASS(code) == BPF_ST ? a : x;
        mem_valid[k] = true;
        ++pc;
        break;
      case BPF_ALU: {
        const uint32_t operand = BPF_SRC(code) == BPF_X ? x : k;
        switch (BPF_OP(code)) {
          case BPF_ADD:
            a += operand;
            break;
          case BPF_SUB:
            a -= operand;
            break;
          case BPF_MUL:
            a *= operand;
            break;
          case BPF_DIV:
            if (operand == 0) return fail(pc, "division by zero");
            a /= operand;
            break;
          case BPF_MOD:
            if (operand == 0) return fail(pc, "modulo by zero");
            a %= operand;
            break;
          case BPF_AND:
            a &= operand;
            break;
          case BPF_OR:
            a |= operand;
            break;
          case BPF_XOR:
            a ^= operand;
            break;
          case BPF_LSH:
            if (operand >= 32) return fail(pc, "shift out of range");
            a <<= operand;
            break;
          case BPF_RSH:
            if (operand >= 32) return fail(pc, "shift out of range");
            a >>= operand;
            break;
          case BPF_NEG:
            if (BPF_SRC(code) != BPF_K) return fail(pc, "unknown ALU instruction");
            a = 0 - a;
            break;
          default:
            return fail(pc, "unknown ALU instruction");
        }
        ++pc;
        break;
      }
      case BPF_JMP: {
        size_t next;
        if (BPF_OP(code) == BPF_JA) {
          if (code != (BPF_JMP | BPF_JA)) return fail(pc, "unknown jump");
          next = pc + 1 + k;
        } else {
          const uint32_t operand = BPF_SRC(code) == BPF_X ? x : k;
          bool taken;
          switch (BPF_OP(code)) {
            case BPF_JEQ:
              taken = a == operand;
              break;
            case BPF_JGT:
              taken = a > operand;
              break;
            case BPF_JGE:
              taken = a >= operand;
              break;
            case BPF_JSET:
              taken = (a & operand) != 0;
              break;
            default:
              return fail(pc, "unknown jump");
          }
          next = pc + 1 + (taken ? in.jt : in.jf);
        }
        if (next >= program.size()) return fail(pc, "jump past the end of the program");
        pc = next;
        break;
      }
      case BPF_RET:
        if (code == (BPF_RET | BPF_K)) {
          result.action = k;
        } else if (code == (BPF_RET | BPF_A)) {
          result.action = a;
        } else {
          return fail(pc, "unknown return");
        }
        result.ok = true;
        return result;
      case BPF_MISC:
        if (code == (BPF_MISC | BPF_TAX)) {
          x = a;
        } else if (code == (BPF_MISC | BPF_TXA)) {
          a = x;
        } else {
          return fail(pc, "unknown misc instruction");
        }
        ++pc;
        break;
      default:
        return fail(pc, "unknown instruction class");
    }
  }
  return fail(pc, "program did not terminate");
}

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

std::string ActionName(uint32_t action) {
  switch (action & SECCOMP_RET_ACTION_FULL) {
    case SECCOMP_RET_KILL_PROCESS:
      return "KILL_PROCESS";
    case SECCOMP_RET_KILL_THREAD:
      return "KILL_THREAD";
    case SECCOMP_RET_TRAP:
      return "TRAP";
    case SECCOMP_RET_ERRNO:
      return "ERRNO";
    case SECCOMP_RET_TRACE:
      return "TRACE";
    case SECCOMP_RET_LOG:
      return "LOG";
    case SECCOMP_RET_ALLOW:
      return "ALLOW";
    default:
      return "unknown";
  }
}

class SeccompProgramTest : public ::testing::Test {
 protected:
  void SetUp() override { DefaultRules(rules_); }

  // Builds the program from rules_ and runs it; the action as a name for readable failures.
  std::string Run(const seccomp_data& data) { return Run(TestLayout(), data); }

  std::string Run(const StubLayout& layout, const seccomp_data& data) {
    auto program = BuildSeccompProgram(layout, rules_);
    if (!program) {
      ADD_FAILURE() << "BuildSeccompProgram: " << program.error();
      return "build failed";
    }
    RunResult r = RunSeccomp(*program, data);
    if (!r.ok) {
      ADD_FAILURE() << "interpreter: " << r.error;
      return "interpreter failed";
    }
    // SECCOMP_RET_TRAP and SECCOMP_RET_KILL_PROCESS carry no data in this filter.
    EXPECT_EQ(r.action & SECCOMP_RET_DATA, 0u) << ActionName(r.action);
    return ActionName(r.action);
  }

  PolicyRule rules_[kSyscallLimit];
};

TEST_F(SeccompProgramTest, FitsTheKernelLimits) {
  auto program = BuildSeccompProgram(TestLayout(), rules_);
  ASSERT_TRUE(program) << program.error();
  EXPECT_GT(program->size(), 11u);  // the prologue plus libseccomp's part
  EXPECT_LE(program->size(), size_t{BPF_MAXINSNS});
  EXPECT_LE(program->size(), size_t{kMaxFilter});
}

TEST_F(SeccompProgramTest, InterpreterRejectsUnknownOpcodes) {
  // BPF_LD|BPF_B|BPF_ABS: fine for sockets, rejected by seccomp.
  std::vector<sock_filter> program = {BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
                                      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  RunResult r = RunSeccomp(program, Call(SYS_getppid, kStubIp));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("pc 0"), std::string::npos) << r.error;
  program = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0)};
  EXPECT_FALSE(RunSeccomp(program, Call(SYS_getppid, kStubIp)).ok);  // falls off the end
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
  ASSERT_EQ(rules_[SYS_reboot].disposition, static_cast<uint8_t>(Disposition::kDeny));
  ASSERT_EQ(rules_[SYS_init_module].disposition, static_cast<uint8_t>(Disposition::kDeny));
  EXPECT_EQ(Run(Call(SYS_reboot, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_init_module, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_bpf, kStubIp)), "KILL_PROCESS");
}

TEST_F(SeccompProgramTest, EveryDeniedSyscallDiesFromTheStub) {
  auto program = BuildSeccompProgram(TestLayout(), rules_);
  ASSERT_TRUE(program) << program.error();
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    if (!FindSyscall(static_cast<uint64_t>(nr))) continue;
    auto d = static_cast<Disposition>(rules_[nr].disposition);
    if (d != Disposition::kDeny && d != Disposition::kKill) continue;
    SCOPED_TRACE(FindSyscall(static_cast<uint64_t>(nr))->name);
    RunResult r = RunSeccomp(*program, Call(nr, kStubIp));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(ActionName(r.action), "KILL_PROCESS");
  }
}

TEST_F(SeccompProgramTest, OverriddenRulesDieFromTheStub) {
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");
  rules_[SYS_getppid].disposition = static_cast<uint8_t>(Disposition::kDeny);
  rules_[SYS_getppid].deny_errno = 13;
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_getppid, 0x401000)), "TRAP");

  DefaultRules(rules_);
  rules_[SYS_getpid].disposition = static_cast<uint8_t>(Disposition::kKill);
  EXPECT_EQ(Run(Call(SYS_getpid, kStubIp)), "KILL_PROCESS");
  EXPECT_EQ(Run(Call(SYS_getppid, kStubIp)), "ALLOW");
}

TEST_F(SeccompProgramTest, BrokeredSyscallsRunFromTheStub) {
  ASSERT_EQ(rules_[SYS_uname].disposition, static_cast<uint8_t>(Disposition::kBroker));
  EXPECT_EQ(Run(Call(SYS_uname, kStubIp)), "ALLOW");
}

TEST_F(SeccompProgramTest, RejectsTextAcrossA4GiBBoundary) {
  StubLayout layout = TestLayout();
  layout.text_start = 0x7e00fffff000;
  layout.text_end = 0x7e0100001000;
  auto program = BuildSeccompProgram(layout, rules_);
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
