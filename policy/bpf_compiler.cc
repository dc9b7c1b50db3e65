#include "policy/bpf_compiler.h"

#include <linux/audit.h>
#include <linux/seccomp.h>

#include <cstddef>
#include <map>

#include "abi/syscall_table.h"

namespace snare::policy {
namespace {

constexpr uint32_t kX32SyscallBit = 0x40000000;  // <asm/unistd.h>'s __X32_SYSCALL_BIT
constexpr uint32_t kArchOffset = offsetof(seccomp_data, arch);
constexpr uint32_t kNrOffset = offsetof(seccomp_data, nr);
constexpr size_t kMaxConditionalJump = 255;  // jt and jf are 8 bits
constexpr size_t kLeafSyscalls = 4;          // a dispatch leaf tests this many one by one

// seccomp_data.args[i] is little-endian: the low word first, the high word 4 bytes on.
constexpr uint32_t ArgLow(int i) {
  return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * static_cast<size_t>(i));
}

std::string Failed(const std::string& what) { return "compiling the seccomp filter: " + what; }

std::string TooLong(size_t instructions) {
  return Failed("the program needs " + std::to_string(instructions) +
                " instructions, more than the kernel's " + std::to_string(BPF_MAXINSNS));
}

// Straight-line BPF whose jumps name labels; Finish() turns them into offsets. Every jump
// goes forward. A conditional jump reaches at most 255 instructions ahead: one that must go
// farther gets a trampoline, an unconditional BPF_JA (32-bit offset) right after it.
class Assembler {
 public:
  static constexpr int kNext = -1;  // a conditional branch to the following instruction

  int NewLabel() {
    labels_.push_back(kUnbound);
    return static_cast<int>(labels_.size() - 1);
  }
  void Bind(int label) { labels_[label] = code_.size(); }

  void Load(uint32_t offset) { Add(BPF_LD | BPF_W | BPF_ABS, offset); }
  void And(uint32_t k) { Add(BPF_ALU | BPF_AND | BPF_K, k); }
  void Ret(uint32_t action) { Add(BPF_RET | BPF_K, action); }
  void Goto(int label) { Add(BPF_JMP | BPF_JA, 0, label); }
  // BPF_JEQ, BPF_JGT or BPF_JGE against k; jt and jf are labels or kNext.
  void Jump(uint16_t op, uint32_t k, int jt, int jf) { Add(BPF_JMP | op | BPF_K, k, jt, jf); }

  std::expected<std::vector<sock_filter>, std::string> Finish() {
    if (auto relaxed = Relax(); !relaxed) return std::unexpected(relaxed.error());
    std::vector<sock_filter> program;
    program.reserve(code_.size());
    for (size_t pc = 0; pc < code_.size(); ++pc) {
      sock_filter f = code_[pc].f;
      if (f.code == (BPF_JMP | BPF_JA)) {
        auto offset = Offset(pc, code_[pc].jt);
        if (!offset) return std::unexpected(offset.error());
        f.k = static_cast<uint32_t>(*offset);
      } else if (BPF_CLASS(f.code) == BPF_JMP) {
        auto jt = Offset(pc, code_[pc].jt);
        auto jf = Offset(pc, code_[pc].jf);
        if (!jt || !jf) return std::unexpected(!jt ? jt.error() : jf.error());
        if (*jt > kMaxConditionalJump || *jf > kMaxConditionalJump) {
          return std::unexpected(
              Failed("a conditional jump at " + std::to_string(pc) + " does not reach its target"));
        }
        f.jt = static_cast<uint8_t>(*jt);
        f.jf = static_cast<uint8_t>(*jf);
      }
      program.push_back(f);
    }
    if (program.empty() || BPF_CLASS(program.back().code) != BPF_RET) {
      return std::unexpected(Failed("the program does not end in a return"));
    }
    return program;
  }

 private:
  static constexpr size_t kUnbound = ~size_t{0};

  struct Insn {
    sock_filter f;
    int jt = kNext;  // BPF_JA: the target
    int jf = kNext;
  };

  void Add(uint16_t code, uint32_t k, int jt = kNext, int jf = kNext) {
    code_.push_back({{code, 0, 0, k}, jt, jf});
  }

  static bool IsConditional(uint16_t code) {
    return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
  }

  // How far a jump from pc to label goes (0: the next instruction).
  std::expected<size_t, std::string> Offset(size_t pc, int label) const {
    if (label == kNext) return 0;
    const size_t target = labels_[label];
    if (target == kUnbound || target <= pc || target >= code_.size()) {
      return std::unexpected(
          Failed("a jump at " + std::to_string(pc) + " leaves the program or goes back"));
    }
    return target - pc - 1;
  }

  bool Far(size_t pc, int label) const {
    if (label == kNext) return false;
    const size_t target = labels_[label];
    return target != kUnbound && target > pc && target - pc - 1 > kMaxConditionalJump;
  }

  // Gives every conditional branch that cannot reach its target a trampoline. Inserting one
  // moves what follows, which can put other branches out of reach: repeat until none is.
  std::expected<void, std::string> Relax() {
    if (code_.size() > BPF_MAXINSNS) return std::unexpected(TooLong(code_.size()));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t pc = 0; pc < code_.size(); ++pc) {
        if (!IsConditional(code_[pc].f.code)) continue;
        const bool far_t = Far(pc, code_[pc].jt);
        const bool far_f = Far(pc, code_[pc].jf);
        if (!far_t && !far_f) continue;
        int jt = code_[pc].jt;
        int jf = code_[pc].jf;
        if (jt == kNext || jf == kNext) {
          const int next = NewLabel();
          labels_[next] = pc + 1;  // moves with the instruction below
          if (jt == kNext) jt = next;
          if (jf == kNext) jf = next;
        }
        std::vector<Insn> trampolines;
        if (far_t) trampolines.push_back({{BPF_JMP | BPF_JA, 0, 0, 0}, jt, kNext});
        if (far_f) trampolines.push_back({{BPF_JMP | BPF_JA, 0, 0, 0}, jf, kNext});
        for (size_t& position : labels_) {
          if (position != kUnbound && position > pc) position += trampolines.size();
        }
        code_.insert(code_.begin() + static_cast<ptrdiff_t>(pc) + 1, trampolines.begin(),
                     trampolines.end());
        if (code_.size() > BPF_MAXINSNS) return std::unexpected(TooLong(code_.size()));
        size_t at = pc + 1;
        if (far_t) {
          jt = NewLabel();
          labels_[jt] = at++;
        }
        if (far_f) {
          jf = NewLabel();
          labels_[jf] = at;
        }
        code_[pc].jt = jt;
        code_[pc].jf = jf;
        changed = true;
      }
    }
    return {};
  }

  std::vector<Insn> code_;
  std::vector<size_t> labels_;  // label -> the index of the instruction it names
};

// Falls through when the check holds, jumps to fail when it does not.
void EmitCheck(Assembler& a, const ArgCheck& c, int fail) {
  constexpr int kNext = Assembler::kNext;
  const uint32_t lo = ArgLow(c.arg);
  const uint32_t hi = lo + 4;
  const uint32_t vh = static_cast<uint32_t>(c.value >> 32);
  const uint32_t vl = static_cast<uint32_t>(c.value);
  switch (c.op) {
    case CmpOp::kEq:
      a.Load(hi);
      a.Jump(BPF_JEQ, vh, kNext, fail);
      a.Load(lo);
      a.Jump(BPF_JEQ, vl, kNext, fail);
      return;
    case CmpOp::kNe: {
      const int pass = a.NewLabel();
      a.Load(hi);
      a.Jump(BPF_JEQ, vh, kNext, pass);
      a.Load(lo);
      a.Jump(BPF_JEQ, vl, fail, kNext);
      a.Bind(pass);
      return;
    }
    case CmpOp::kMaskedEq: {
      if (c.value & ~c.mask) {  // a bit the mask clears can never be set
        a.Goto(fail);
        return;
      }
      const uint32_t masks[2] = {static_cast<uint32_t>(c.mask >> 32),
                                 static_cast<uint32_t>(c.mask)};
      const uint32_t offsets[2] = {hi, lo};
      const uint32_t values[2] = {vh, vl};
      for (int half = 0; half < 2; ++half) {
        if (masks[half] == 0) continue;  // (x & 0) == 0
        a.Load(offsets[half]);
        if (masks[half] != 0xffffffffu) a.And(masks[half]);
        a.Jump(BPF_JEQ, values[half], kNext, fail);
      }
      return;
    }
    case CmpOp::kGt:
    case CmpOp::kGe:
    case CmpOp::kLt:
    case CmpOp::kLe: {
      // The high words decide unless they are equal; then the low words do.
      const bool greater = c.op == CmpOp::kGt || c.op == CmpOp::kGe;
      const int pass = a.NewLabel();
      a.Load(hi);
      if (vh != 0xffffffffu) a.Jump(BPF_JGT, vh, greater ? pass : fail, kNext);
      if (vh != 0) a.Jump(BPF_JEQ, vh, kNext, greater ? fail : pass);
      const bool always = (c.op == CmpOp::kGe && vl == 0) || (c.op == CmpOp::kLe && vl == ~0u);
      const bool never = (c.op == CmpOp::kLt && vl == 0) || (c.op == CmpOp::kGt && vl == ~0u);
      if (never) {
        a.Goto(fail);
      } else if (!always) {
        a.Load(lo);
        switch (c.op) {
          case CmpOp::kGt:
            a.Jump(BPF_JGT, vl, kNext, fail);
            break;
          case CmpOp::kGe:
            a.Jump(BPF_JGE, vl, kNext, fail);
            break;
          case CmpOp::kLt:
            a.Jump(BPF_JGE, vl, fail, kNext);
            break;
          default:  // kLe
            a.Jump(BPF_JGT, vl, fail, kNext);
            break;
        }
      }
      a.Bind(pass);
      return;
    }
  }
}

// One syscall the dispatch tests for.
struct Emitted {
  uint32_t nr;
  uint32_t fallback;                  // a seccomp return value
  std::vector<const ArgRule*> rules;  // in order; none: the dispatch returns fallback
  int block = -1;                     // where the rules start
};

// Rules after one without checks never run, and rules at the end that give the fallback
// change nothing.
std::vector<const ArgRule*> LiveRules(const PolicyTable& table, const SyscallEntry& e) {
  std::vector<const ArgRule*> rules;
  for (uint32_t r = e.first_rule; r < static_cast<uint32_t>(e.first_rule) + e.rule_count; ++r) {
    rules.push_back(&table.rules[r]);
    if (table.rules[r].count == 0) break;
  }
  while (!rules.empty() && SeccompAction(rules.back()->disposition) == SeccompAction(e.fallback)) {
    rules.pop_back();
  }
  return rules;
}

std::expected<void, std::string> CheckTable(const PolicyTable& table) {
  if (table.rule_count > static_cast<uint32_t>(kMaxArgRules)) {
    return std::unexpected(
        Failed("the table holds more than " + std::to_string(kMaxArgRules) + " rules"));
  }
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const abi::SyscallInfo& info = abi::kSyscalls[i];
    const SyscallEntry& e = table.entries[info.nr];
    if (static_cast<uint32_t>(e.first_rule) + e.rule_count > table.rule_count) {
      return std::unexpected(Failed(std::string(info.name) + "'s rules lie outside the table"));
    }
    for (uint32_t r = e.first_rule; r < static_cast<uint32_t>(e.first_rule) + e.rule_count; ++r) {
      const ArgRule& rule = table.rules[r];
      bool ok = rule.count <= kMaxArgChecks;
      for (int c = 0; ok && c < rule.count; ++c) {
        ok = rule.checks[c].arg < 6 && rule.checks[c].op <= CmpOp::kMaskedEq;
      }
      if (!ok)
        return std::unexpected(Failed("a rule for " + std::string(info.name) + " is malformed"));
    }
  }
  return {};
}

// The RETs the dispatch shares, one per action, placed after it.
class Returns {
 public:
  int Label(Assembler& a, uint32_t action) {
    auto it = labels_.find(action);
    if (it == labels_.end()) it = labels_.emplace(action, a.NewLabel()).first;
    return it->second;
  }
  void Emit(Assembler& a) const {
    for (const auto& [action, label] : labels_) {
      a.Bind(label);
      a.Ret(action);
    }
  }

 private:
  std::map<uint32_t, int> labels_;
};

// A balanced binary search over s[lo, hi) (not empty) by number, down to leaves that
// compare a few numbers one by one; a number no leaf knows gets default_action.
void EmitDispatch(Assembler& a, const std::vector<Emitted>& s, size_t lo, size_t hi,
                  uint32_t default_action, Returns& returns) {
  if (hi - lo <= kLeafSyscalls) {
    for (size_t i = lo; i < hi; ++i) {
      const int match = s[i].block >= 0 ? s[i].block : returns.Label(a, s[i].fallback);
      const int miss = i + 1 == hi ? returns.Label(a, default_action) : Assembler::kNext;
      a.Jump(BPF_JEQ, s[i].nr, match, miss);
    }
    return;
  }
  const size_t mid = lo + (hi - lo) / 2;
  const int upper = a.NewLabel();
  a.Jump(BPF_JGE, s[mid].nr, upper, Assembler::kNext);
  EmitDispatch(a, s, lo, mid, default_action, returns);
  a.Bind(upper);
  EmitDispatch(a, s, mid, hi, default_action, returns);
}

}  // namespace

uint32_t SeccompAction(Disposition d) {
  switch (d.action) {
    case Action::kPassthrough:
      return SECCOMP_RET_ALLOW;
    case Action::kBroker:
    case Action::kTrap:
      return SECCOMP_RET_TRAP;
    case Action::kDeny:
      return SECCOMP_RET_ERRNO | (d.err & SECCOMP_RET_DATA);
    case Action::kKill:
      return SECCOMP_RET_KILL_PROCESS;
    case Action::kNotify:
      return SECCOMP_RET_USER_NOTIF;
  }
  return SECCOMP_RET_KILL_PROCESS;
}

uint32_t DefaultSeccompAction(const PolicyTable& table) {
  std::map<uint32_t, int> votes;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    ++votes[SeccompAction(table.entries[abi::kSyscalls[i].nr].fallback)];
  }
  uint32_t best_action = SECCOMP_RET_ALLOW;
  int best = -1;
  for (const auto& [action, count] : votes) {
    if (count > best) {
      best = count;
      best_action = action;
    }
  }
  return best_action;
}

std::expected<std::vector<sock_filter>, std::string> CompileSyscallDispatch(
    const PolicyTable& table, uint32_t default_action) {
  if (auto ok = CheckTable(table); !ok) return std::unexpected(ok.error());
  std::vector<Emitted> syscalls;  // kSyscalls is sorted by number
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint32_t nr = abi::kSyscalls[i].nr;
    const SyscallEntry& e = table.entries[nr];
    Emitted s = {nr, SeccompAction(e.fallback), LiveRules(table, e)};
    if (s.rules.empty() && s.fallback == default_action) continue;
    syscalls.push_back(std::move(s));
  }
  Assembler a;
  for (Emitted& s : syscalls) {
    if (!s.rules.empty()) s.block = a.NewLabel();
  }
  a.Load(kNrOffset);
  if (syscalls.empty()) {
    a.Ret(default_action);
  } else {
    Returns returns;
    EmitDispatch(a, syscalls, 0, syscalls.size(), default_action, returns);
    returns.Emit(a);
  }
  for (const Emitted& s : syscalls) {
    if (s.rules.empty()) continue;
    a.Bind(s.block);
    for (const ArgRule* rule : s.rules) {
      const int next_rule = a.NewLabel();
      for (int c = 0; c < rule->count; ++c) EmitCheck(a, rule->checks[c], next_rule);
      a.Ret(SeccompAction(rule->disposition));
      a.Bind(next_rule);
    }
    a.Ret(s.fallback);
  }
  return a.Finish();
}

std::expected<std::vector<sock_filter>, std::string> CompileToBpf(const PolicyTable& table,
                                                                  const BpfOptions& options) {
  const uint32_t default_action =
      options.default_action ? SeccompAction(*options.default_action) : DefaultSeccompAction(table);
  auto dispatch = CompileSyscallDispatch(table, default_action);
  if (!dispatch) return dispatch;
  std::vector<sock_filter> program = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArchOffset),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNrOffset),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kX32SyscallBit, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  program.insert(program.end(), dispatch->begin(), dispatch->end());
  if (program.size() > BPF_MAXINSNS) return std::unexpected(TooLong(program.size()));
  return program;
}

}  // namespace snare::policy
