// The evaluator and the compiled seccomp program must agree: for every syscall number under
// every disposition, and for argument rules over arguments chosen around their constants.
#include "policy/bpf_compiler.h"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <algorithm>
#include <cerrno>
#include <map>
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
  std::string rules;
  const SyscallEntry& e = table.entries[nr];
  for (int i = e.first_rule; i < e.first_rule + e.rule_count; ++i) {
    rules += "\n  rule:";
    for (int c = 0; c < table.rules[i].count; ++c) {
      const ArgCheck& k = table.rules[i].checks[c];
      rules += " a" + std::to_string(k.arg) + " op" + std::to_string(static_cast<int>(k.op)) +
               " v=" + std::to_string(k.value) + " m=" + std::to_string(k.mask);
    }
  }
  std::string shown;
  for (int i = 0; i < 6; ++i) shown += (i ? ", " : "") + std::to_string(args[i]);
  ADD_FAILURE() << abi::SyscallName(nr) << "(" << shown << "): evaluator " << Describe(want)
                << ", BPF " << Describe(r.action) << rules;
  return false;
}

const Disposition kDispositions[] = {
    {Action::kPassthrough, 0}, {Action::kBroker, 0}, {Action::kDeny, 0}, {Action::kKill, 0}};

TEST(BpfCompilerTest, EverySyscallUnderEveryDisposition) {
  std::mt19937_64 rng(7);
  for (int shift = 0; shift < 4; ++shift) {
    PolicyBuilder b;
    for (int i = 0; i < abi::kSyscallCount; ++i) {
      Disposition d = kDispositions[(i + shift) % 4];
      if (d.action == Action::kDeny) d.err = static_cast<uint16_t>(1 + (i * 37 + shift) % 4095);
      b.Set(abi::kSyscalls[i].nr, d);
    }
    auto table = b.TryBuild();
    ASSERT_TRUE(table) << table.error();
    auto program = CompileToBpf(*table);
    ASSERT_TRUE(program) << program.error();
    ASSERT_LE(program->size(), size_t{BPF_MAXINSNS});
    for (int i = 0; i < abi::kSyscallCount; ++i) {
      uint64_t args[6];
      for (uint64_t& a : args) a = rng();
      ASSERT_TRUE(Agrees(*table, *program, abi::kSyscalls[i].nr, args)) << "shift " << shift;
    }
  }
}

TEST(BpfCompilerTest, TheDefaultPolicy) {
  auto table = DefaultPolicy().TryBuild();
  ASSERT_TRUE(table) << table.error();
  auto program = CompileToBpf(*table);
  ASSERT_TRUE(program) << program.error();
  const uint64_t args[6] = {};
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    ASSERT_TRUE(Agrees(*table, *program, abi::kSyscalls[i].nr, args));
  }
  BpfResult r = RunBpf(*program, Data(SYS_ptrace, args));
  EXPECT_EQ(r.action, SECCOMP_RET_ERRNO | EPERM);
}

TEST(BpfCompilerTest, OtherArchitecturesAndX32Die) {
  auto table = PolicyBuilder().TryBuild();
  ASSERT_TRUE(table) << table.error();
  auto program = CompileToBpf(*table);
  ASSERT_TRUE(program) << program.error();
  const uint64_t args[6] = {};
  EXPECT_EQ(RunBpf(*program, Data(SYS_getppid, args, AUDIT_ARCH_I386)).action,
            SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(*program, Data(0x40000000 | SYS_write, args)).action, SECCOMP_RET_KILL_PROCESS);
  EXPECT_EQ(RunBpf(*program, Data(SYS_write, args)).action, SECCOMP_RET_ALLOW);
}

// Random rules, then arguments at, around and far from each rule's constants.
TEST(BpfCompilerTest, ArgumentRules) {
  std::mt19937_64 rng(11);
  const CmpOp ops[] = {CmpOp::kEq, CmpOp::kNe, CmpOp::kLt,      CmpOp::kLe,
                       CmpOp::kGt, CmpOp::kGe, CmpOp::kMaskedEq};
  const uint64_t interesting[] = {
      0,     1,    2,    0xffffffffull, 0x100000000ull,   0x1000000ffull,
      ~0ull, 1020, 1021, 1022,          0x7e0000001000ull};
  auto pick = [&] { return interesting[rng() % std::size(interesting)] + (rng() % 3) - 1; };
  for (int round = 0; round < 300; ++round) {
    PolicyBuilder b;
    const uint32_t nrs[] = {SYS_close, SYS_dup2, SYS_mmap, SYS_execveat, SYS_kill};
    std::vector<uint64_t> constants;
    std::vector<std::pair<uint32_t, std::vector<ArgCheck>>> used;
    std::map<uint32_t, Disposition> dispositions;
    for (uint32_t nr : nrs) {
      Disposition d = kDispositions[1 + rng() % 3];
      if (d.action == Action::kDeny) d.err = static_cast<uint16_t>(1 + rng() % 200);
      dispositions[nr] = d;
      const int rules = 1 + static_cast<int>(rng() % 3);
      for (int r = 0; r < rules; ++r) {
        std::vector<ArgCheck> checks;
        const int n = 1 + static_cast<int>(rng() % kMaxArgChecks);
        uint8_t args[6] = {0, 1, 2, 3, 4, 5};
        std::shuffle(std::begin(args), std::end(args), rng);
        for (int c = 0; c < n; ++c) {
          ArgCheck check;
          check.arg = args[c];
          check.op = ops[rng() % std::size(ops)];
          check.value = pick();
          check.mask = rng() % 2 ? 0xffffffffull : pick();
          if (check.op == CmpOp::kMaskedEq) check.value &= check.mask;
          constants.push_back(check.value);
          checks.push_back(check);
        }
        // What the builder refuses (libseccomp cannot compile it): make it an equality.
        for (ArgCheck& c : checks) {
          for (const auto& [other_nr, other] : used) {
            for (const ArgCheck& o : other) {
              if (other_nr != nr || o.arg != c.arg) continue;
              if (o.op == CmpOp::kMaskedEq && c.op == CmpOp::kMaskedEq) {
                c.mask = o.mask;
                c.value &= c.mask;
              } else {
                c.op = CmpOp::kEq;
              }
            }
          }
        }
        for (auto& [other_nr, other] : used) {
          for (ArgCheck& o : other) {
            for (const ArgCheck& c : checks) {
              if (other_nr == nr && o.arg == c.arg && o.op != c.op) o.op = CmpOp::kEq;
            }
          }
        }
        used.push_back({nr, checks});
      }
    }
    for (const auto& [nr, checks] : used) b.When(nr, checks, dispositions[nr]);
    auto table = b.TryBuild();
    ASSERT_TRUE(table) << table.error();
    auto program = CompileToBpf(*table);
    ASSERT_TRUE(program) << program.error();
    for (int sample = 0; sample < 400; ++sample) {
      uint64_t args[6];
      for (uint64_t& a : args) {
        a = rng() % 2 ? constants[rng() % constants.size()] + (rng() % 3) - 1 : pick();
      }
      ASSERT_TRUE(Agrees(*table, *program, nrs[rng() % std::size(nrs)], args))
          << "round " << round << " sample " << sample;
    }
  }
}

TEST(BpfCompilerTest, RefusesWhatLibseccompCannotExpress) {
  // Rules on a syscall whose fallback is not the filter's default (passthrough here).
  auto table = PolicyBuilder()
                   .Deny(SYS_socket, EACCES)
                   .When(SYS_socket, {ArgEq(0, 1)}, {Action::kPassthrough, 0})
                   .TryBuild();
  ASSERT_TRUE(table) << table.error();
  auto program = CompileToBpf(*table);
  ASSERT_FALSE(program);
  EXPECT_NE(program.error().find("socket has argument rules"), std::string::npos)
      << program.error();
}

}  // namespace
}  // namespace snare::policy
