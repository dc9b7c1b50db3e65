// The evaluator and the compiled seccomp program must agree: for every syscall number under
// every disposition, and for first-match rule lists over arguments chosen around their
// constants. Numbers that are not syscalls are left out: the program gives them its default
// action where the evaluator says ENOSYS (bpf_compiler.h).
#include "policy/bpf_compiler.h"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <algorithm>
#include <cerrno>
#include <random>
#include <string>
#include <vector>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"
#include "policy/bpf_interpreter.h"
#include "policy/default_policy.h"
#include "policy/evaluator.h"

namespace snare::policy {
namespace {

seccomp_data Data(uint32_t nr, const uint64_t args[6], uint32_t arch = AUDIT_ARCH_X86_64) {
  seccomp_data data = {};
  data.nr = static_cast<int>(nr);
  data.arch = arch;
  data.instruction_pointer = 0x401000;
  for (int i = 0; i < 6; ++i) data.args[i] = args[i];
  return data;
}

std::string Describe(uint32_t action) {
  return SeccompActionName(action) + "(" + std::to_string(action & SECCOMP_RET_DATA) + ")";
}

std::string Describe(Disposition d) {
  return std::string(ActionName(d.action)) +
         (d.action == Action::kDeny ? std::to_string(d.err) : "");
}

// Runs the program and checks it against Evaluate; returns false (after a failure) on a
// mismatch so callers can stop early.
bool Agrees(const PolicyTable& table, const std::vector<sock_filter>& program, uint32_t nr,
            const uint64_t args[6]) {
  BpfResult r = RunBpf(program, Data(nr, args));
  if (!r.ok) {
    ADD_FAILURE() << "interpreter: " << r.error;
    return false;
  }
  const uint32_t want = SeccompAction(Evaluate(table, nr, args));
  if (r.action == want) return true;
  const SyscallEntry& e = table.entries[nr];
  std::string rules;
  for (int i = e.first_rule; i < e.first_rule + e.rule_count; ++i) {
    rules += "\n  rule " + Describe(table.rules[i].disposition) + ":";
    for (int c = 0; c < table.rules[i].count; ++c) {
      const ArgCheck& k = table.rules[i].checks[c];
      rules += " a" + std::to_string(k.arg) + " op" + std::to_string(static_cast<int>(k.op)) +
               " v=" + std::to_string(k.value) + " m=" + std::to_string(k.mask);
    }
  }
  std::string shown;
  for (int i = 0; i < 6; ++i) shown += (i ? ", " : "") + std::to_string(args[i]);
  ADD_FAILURE() << abi::SyscallName(nr) << "(" << shown << "): evaluator " << Describe(want)
                << ", BPF " << Describe(r.action) << "\n  fallback " << Describe(e.fallback)
                << rules;
  return false;
}

std::vector<sock_filter> Compile(const PolicyTable& table, const BpfOptions& options = {}) {
  auto program = CompileToBpf(table, options);
  EXPECT_TRUE(program) << program.error();
  if (!program) return {};
  EXPECT_LE(program->size(), size_t{BPF_MAXINSNS});
  return *program;
}

PolicyTable Build(const PolicyBuilder& b) {
  auto table = b.TryBuild();
  EXPECT_TRUE(table) << table.error();
  return table ? *table : PolicyTable{};
}

const Disposition kDispositions[] = {
    {Action::kPassthrough, 0}, {Action::kBroker, 0}, {Action::kDeny, 0},
    {Action::kKill, 0},        {Action::kNotify, 0}, {Action::kTrap, 0},
};
constexpr int kDispositionCount = static_cast<int>(std::size(kDispositions));

Disposition RandomDisposition(std::mt19937_64& rng) {
  Disposition d = kDispositions[rng() % kDispositionCount];
  if (d.action == Action::kDeny) d.err = static_cast<uint16_t>(1 + rng() % 4095);
  return d;
}

const CmpOp kOps[] = {CmpOp::kEq, CmpOp::kNe, CmpOp::kLt,      CmpOp::kLe,
                      CmpOp::kGt, CmpOp::kGe, CmpOp::kMaskedEq};

// The constants where 64-bit comparisons on 32-bit halves go wrong, and some ordinary ones.
const uint64_t kInteresting[] = {
    0,
    1,
    2,
    0x7fffffffull,
    0x80000000ull,
    0xffffffffull,
    0x100000000ull,
    0x1000000ffull,
    0xffffffff00000000ull,
    0x8000000000000000ull,
    ~0ull,
    1020,
    1021,
    1022,
    0x7e0000001000ull,
};

// A value at, just beside, or half-borrowed from one of the constants.
uint64_t Around(std::mt19937_64& rng, const std::vector<uint64_t>& constants) {
  auto any = [&] {
    return rng() % 2 ? constants[rng() % constants.size()]
                     : kInteresting[rng() % std::size(kInteresting)];
  };
  switch (rng() % 6) {
    case 0:
      return any();
    case 1:
      return any() + 1;
    case 2:
      return any() - 1;
    case 3:  // the high word of one, the low word of another
      return (any() & 0xffffffff00000000ull) | (any() & 0xffffffffull);
    case 4:
      return any() ^ (1ull << (rng() % 64));
    default:
      return rng();
  }
}

TEST(BpfCompilerTest, EverySyscallUnderEveryDisposition) {
  std::mt19937_64 rng(7);
  for (int shift = 0; shift < kDispositionCount; ++shift) {
    PolicyBuilder b;
    for (int i = 0; i < abi::kSyscallCount; ++i) {
      Disposition d = kDispositions[(i + shift) % kDispositionCount];
      if (d.action == Action::kDeny) d.err = static_cast<uint16_t>(1 + (i * 37 + shift) % 4095);
      b.Set(abi::kSyscalls[i].nr, d);
    }
    const PolicyTable table = Build(b);
    const std::vector<sock_filter> program = Compile(table);
    ASSERT_FALSE(program.empty());
    for (int i = 0; i < abi::kSyscallCount; ++i) {
      uint64_t args[6];
      for (uint64_t& a : args) a = rng();
      ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i].nr, args)) << "shift " << shift;
    }
  }
}

TEST(BpfCompilerTest, TheDefaultPolicy) {
  const PolicyTable table = Build(DefaultPolicy());
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  ::testing::Test::RecordProperty("instructions", static_cast<int>(program.size()));
  const uint64_t args[6] = {};
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i].nr, args));
  }
  BpfResult r = RunBpf(program, Data(SYS_ptrace, args));
  EXPECT_EQ(r.action, SECCOMP_RET_ERRNO | EPERM);
  // About 50 syscalls differ from the default: a small program.
  EXPECT_LT(program.size(), 200u);
}

TEST(BpfCompilerTest, OtherArchitecturesAndX32Die) {
  const PolicyTable table = Build(PolicyBuilder());
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  const uint64_t args[6] = {};
  EXPECT_EQ(RunBpf(program, Data(SYS_getppid, args, AUDIT_ARCH_I386)).action,
            SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(program, Data(0x40000000 | SYS_write, args)).action, SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(program, Data(~0u, args)).action, SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(program, Data(SYS_write, args)).action, SECCOMP_RET_ALLOW);
}

TEST(BpfCompilerTest, NumbersThatAreNotSyscallsGetTheDefault) {
  const PolicyTable table = Build(PolicyBuilder().SetAll({Action::kKill, 0}).Passthrough(SYS_read));
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  const uint64_t args[6] = {};
  for (uint32_t nr : {400u, 511u, 512u, 0x3fffffffu}) {
    EXPECT_EQ(RunBpf(program, Data(nr, args)).action, SECCOMP_RET_KILL_PROCESS) << nr;
  }
  EXPECT_EQ(RunBpf(program, Data(SYS_read, args)).action, SECCOMP_RET_ALLOW);
}

TEST(BpfCompilerTest, TheDefaultActionCanBeChosen) {
  const PolicyTable table = Build(PolicyBuilder().Deny(SYS_socket, EACCES));
  EXPECT_EQ(DefaultSeccompAction(table), SECCOMP_RET_ALLOW);
  const std::vector<sock_filter> program =
      Compile(table, {.default_action = Disposition{Action::kTrap, 0}});
  ASSERT_FALSE(program.empty());
  const uint64_t args[6] = {};
  EXPECT_EQ(RunBpf(program, Data(400, args)).action, SECCOMP_RET_TRAP);
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i].nr, args));
  }
}

// What libseccomp 2.5.4 could not compile or compiled wrongly: rules with different
// dispositions and a fallback of their own, order comparisons of one argument in several
// rules, several checks on one argument in one rule.
TEST(BpfCompilerTest, FirstMatchRules) {
  const PolicyTable table =
      Build(PolicyBuilder()
                // Only AF_UNIX sockets, and never of type 5; everything else EACCES.
                .Deny(SYS_socket, EACCES)
                .When(SYS_socket, {ArgEq(0, 1), ArgEq(1, 5)}, {Action::kKill, 0})
                .When(SYS_socket, {ArgEq(0, 1)}, {Action::kPassthrough, 0})
                // close_range from the stub (platform/systrap/seccomp_program.cc).
                .When(SYS_close_range, {ArgGt(0, 0xffffffff)}, {Action::kKill, 0})
                .When(SYS_close_range, {ArgGt(1, 0xffffffff)}, {Action::kKill, 0})
                .When(SYS_close_range, {ArgLe(0, 1022), ArgGe(1, 1020)}, {Action::kKill, 0})
                // A range on one argument in one rule.
                .When(SYS_kill, {ArgGe(0, 100), ArgLt(0, 200), ArgNe(0, 150)}, {Action::kNotify, 0})
                .When(SYS_kill, {ArgLt(0, 300)}, {Action::kDeny, EPERM}));
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  struct Case {
    uint32_t nr;
    uint64_t args[6];
    uint32_t want;
  } cases[] = {
      {SYS_socket, {1, 1}, SECCOMP_RET_ALLOW},
      {SYS_socket, {1, 5}, SECCOMP_RET_KILL_PROCESS},
      {SYS_socket, {2, 1}, SECCOMP_RET_ERRNO | EACCES},
      {SYS_socket, {(1ull << 32) | 1, 1}, SECCOMP_RET_ERRNO | EACCES},
      {SYS_close_range, {3, 0xffffffff}, SECCOMP_RET_KILL_PROCESS},
      {SYS_close_range, {3, 1019}, SECCOMP_RET_ALLOW},
      {SYS_close_range, {1023, 0xffffffff}, SECCOMP_RET_ALLOW},
      {SYS_close_range, {1ull << 32, 5}, SECCOMP_RET_KILL_PROCESS},
      {SYS_close_range, {3, 1ull << 32}, SECCOMP_RET_KILL_PROCESS},
      {SYS_kill, {99}, SECCOMP_RET_ERRNO | EPERM},
      {SYS_kill, {100}, SECCOMP_RET_USER_NOTIF},
      {SYS_kill, {150}, SECCOMP_RET_ERRNO | EPERM},
      {SYS_kill, {199}, SECCOMP_RET_USER_NOTIF},
      {SYS_kill, {200}, SECCOMP_RET_ERRNO | EPERM},
      {SYS_kill, {300}, SECCOMP_RET_ALLOW},
      {SYS_kill, {(1ull << 32) | 150}, SECCOMP_RET_ALLOW},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message()
                 << abi::SyscallName(c.nr) << "(" << c.args[0] << ", " << c.args[1] << ")");
    EXPECT_EQ(SeccompAction(Evaluate(table, c.nr, c.args)), c.want);
    EXPECT_TRUE(Agrees(table, program, c.nr, c.args));
  }
}

// Random first-match rule lists, then arguments at, around and far from their constants.
TEST(BpfCompilerTest, RandomRuleLists) {
  std::mt19937_64 rng(11);
  const uint32_t nrs[] = {SYS_close, SYS_dup2,    SYS_mmap,        SYS_execveat,
                          SYS_kill,  SYS_getppid, SYS_close_range, SYS_socket};
  int programs = 0;
  for (int round = 0; round < 2000; ++round) {
    PolicyBuilder b;
    std::vector<uint64_t> constants;
    for (uint32_t nr : nrs) {
      if (rng() % 2) b.Set(nr, RandomDisposition(rng));
      const int rules = static_cast<int>(rng() % 6);
      for (int r = 0; r < rules; ++r) {
        std::vector<ArgCheck> checks;
        const int n = 1 + static_cast<int>(rng() % kMaxArgChecks);
        for (int c = 0; c < n; ++c) {
          ArgCheck check;
          // Mostly the first arguments: several checks on one argument, in one rule and
          // across rules.
          check.arg = static_cast<uint8_t>(rng() % 4 ? rng() % 2 : rng() % 6);
          check.op = kOps[rng() % std::size(kOps)];
          check.value = constants.empty() || rng() % 2 ? Around(rng, {0}) : Around(rng, constants);
          if (check.op == CmpOp::kMaskedEq) {
            check.mask = rng() % 2 ? 0xffffffffull : Around(rng, {0xffffffff00000000ull});
            if (rng() % 4) check.value &= check.mask;  // else it can never match
          }
          constants.push_back(check.value);
          if (check.mask) constants.push_back(check.mask);
          checks.push_back(check);
        }
        if (rng() % 4) {
          b.When(nr, checks, RandomDisposition(rng));
        } else {
          b.WhenFirst(nr, checks, RandomDisposition(rng));
        }
      }
    }
    const PolicyTable table = Build(b);
    const std::vector<sock_filter> program = Compile(table);
    ASSERT_FALSE(program.empty()) << "round " << round;
    ++programs;
    for (int sample = 0; sample < 200; ++sample) {
      uint64_t args[6];
      for (uint64_t& a : args) a = Around(rng, constants);
      ASSERT_TRUE(Agrees(table, program, nrs[rng() % std::size(nrs)], args))
          << "round " << round << " sample " << sample;
    }
  }
  EXPECT_EQ(programs, 2000);
}

// Jumps: rules on many syscalls make a dispatch and blocks far longer than a conditional
// jump reaches (255 instructions); the compiler bridges them with BPF_JA.
TEST(BpfCompilerTest, HundredsOfRulesOnManySyscalls) {
  std::mt19937_64 rng(13);
  PolicyBuilder b;
  std::vector<uint32_t> nrs;
  std::vector<uint64_t> constants;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint32_t nr = abi::kSyscalls[i].nr;
    if (i % 3 == 0) b.Set(nr, RandomDisposition(rng));
    if (i % 4 != 0) continue;
    nrs.push_back(nr);
  }
  int rules = 0;
  for (; rules < 300; ++rules) {
    const uint32_t nr = nrs[rng() % nrs.size()];
    const uint64_t v = kInteresting[rng() % std::size(kInteresting)];
    constants.push_back(v);
    b.When(nr, {ArgGe(0, v), ArgNe(1, v + 1)}, RandomDisposition(rng));
  }
  // One syscall with a long list of its own.
  for (int i = 0; i < 100; ++i, ++rules) {
    b.When(SYS_ioctl, {ArgEq(1, 0x5400 + static_cast<uint64_t>(i))}, RandomDisposition(rng));
  }
  nrs.push_back(SYS_ioctl);
  const PolicyTable table = Build(b);
  ASSERT_EQ(table.rule_count, 400u);
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  ::testing::Test::RecordProperty("instructions", static_cast<int>(program.size()));
  bool long_jump = false;
  for (const sock_filter& f : program) long_jump |= f.code == (BPF_JMP | BPF_JA) && f.k > 255;
  EXPECT_TRUE(long_jump);
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint64_t zeros[6] = {};
    ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i].nr, zeros));
  }
  for (int sample = 0; sample < 20000; ++sample) {
    uint64_t args[6];
    for (uint64_t& a : args) a = Around(rng, constants);
    if (rng() % 8 == 0) args[1] = 0x5400 + rng() % 110;
    ASSERT_TRUE(Agrees(table, program, nrs[rng() % nrs.size()], args)) << "sample " << sample;
  }
}

TEST(BpfCompilerTest, ThreeHundredRules) {
  PolicyBuilder b;
  for (int i = 0; i < 300; ++i) {
    const uint32_t nr = abi::kSyscalls[i % abi::kSyscallCount].nr;
    b.When(nr, {ArgEq(0, static_cast<uint64_t>(i))}, {Action::kKill, 0});
  }
  const PolicyTable table = Build(b);
  const std::vector<sock_filter> program = Compile(table);
  ASSERT_FALSE(program.empty());
  ::testing::Test::RecordProperty("instructions", static_cast<int>(program.size()));
  for (int i = 0; i < 300; ++i) {
    uint64_t args[6] = {static_cast<uint64_t>(i)};
    ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i % abi::kSyscallCount].nr, args));
    args[0] = static_cast<uint64_t>(i) | (1ull << 32);
    ASSERT_TRUE(Agrees(table, program, abi::kSyscalls[i % abi::kSyscallCount].nr, args));
  }
}

TEST(BpfCompilerTest, RefusesProgramsLongerThanTheKernelTakes) {
  PolicyBuilder b;
  for (int i = 0; i < kMaxArgRules; ++i) {
    b.When(abi::kSyscalls[i % abi::kSyscallCount].nr,
           {ArgGt(0, 1), ArgLt(1, 2), ArgGe(2, 3), ArgLe(3, 4), ArgNe(4, 5), ArgEq(5, 6)},
           {Action::kKill, 0});
  }
  const PolicyTable table = Build(b);
  auto program = CompileToBpf(table);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().find("more than the kernel's 4096"), std::string::npos)
      << program.error();
}

TEST(BpfCompilerTest, RefusesMalformedTables) {
  PolicyTable table = Build(PolicyBuilder().When(SYS_close, {ArgEq(0, 1)}, {Action::kKill, 0}));
  table.rules[0].checks[0].arg = 7;
  auto program = CompileToBpf(table);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().find("close is malformed"), std::string::npos) << program.error();
  table.rules[0].checks[0].arg = 0;
  table.entries[SYS_close].rule_count = 2;
  program = CompileToBpf(table);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().find("outside the table"), std::string::npos) << program.error();
}

// The fragment behind a prologue of one's own: it loads the number itself and returns.
TEST(BpfCompilerTest, TheDispatchFragment) {
  const PolicyTable table =
      Build(PolicyBuilder().Kill(SYS_ptrace).When(SYS_close, {ArgEq(0, 5)}, {Action::kKill, 0}));
  auto fragment = CompileSyscallDispatch(table, SECCOMP_RET_TRAP);
  ASSERT_TRUE(fragment) << fragment.error();
  ASSERT_FALSE(fragment->empty());
  EXPECT_EQ(fragment->front().code, BPF_LD | BPF_W | BPF_ABS);
  EXPECT_EQ(fragment->front().k, offsetof(seccomp_data, nr));
  std::vector<sock_filter> program = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_THREAD),
  };
  program.insert(program.end(), fragment->begin(), fragment->end());
  uint64_t args[6] = {5};
  EXPECT_EQ(RunBpf(program, Data(SYS_close, args)).action, SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(program, Data(SYS_ptrace, args)).action, SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(program, Data(SYS_getppid, args)).action, SECCOMP_RET_ALLOW);
  EXPECT_EQ(RunBpf(program, Data(400, args)).action, SECCOMP_RET_TRAP);
  EXPECT_EQ(RunBpf(program, Data(SYS_getppid, args, AUDIT_ARCH_I386)).action,
            SECCOMP_RET_KILL_THREAD);
  args[0] = 6;
  EXPECT_EQ(RunBpf(program, Data(SYS_close, args)).action, SECCOMP_RET_ALLOW);
}

}  // namespace
}  // namespace snare::policy
