// A compiled policy as plain data: per syscall number a fallback disposition and an ordered
// list of argument rules, each an AND of ArgChecks with a disposition of its own. For a call,
// the first rule of its syscall whose checks all hold gives the disposition; when none does,
// the fallback. Numbers that are not x86-64 syscalls are denied with ENOSYS. The evaluator
// (evaluator.h) and the seccomp compiler (bpf_compiler.h) both read it, so what the sentry
// decides and what the kernel enforces come from one value.
//
// Freestanding and position-independent (no pointers): the sentry copies it into the shared
// region for the inproc stub. Build one with PolicyBuilder (policy_builder.h).
#ifndef SNARE_POLICY_POLICY_TABLE_H_
#define SNARE_POLICY_POLICY_TABLE_H_

#include <stdint.h>

#include "abi/syscall_table.h"
#include "policy/action.h"
#include "policy/arg_check.h"

namespace snare::policy {

inline constexpr int kMaxArgChecks = 6;  // per rule; several may check one argument
inline constexpr int kMaxArgRules = 512;

struct ArgRule {
  Disposition disposition;  // when every check holds
  uint8_t count = 0;
  ArgCheck checks[kMaxArgChecks];
};

struct SyscallEntry {
  Disposition fallback;  // when no rule matches (or there are none)
  // The syscall's rules, in the order they are tried: rules[first_rule, +rule_count).
  uint16_t first_rule = 0;
  uint16_t rule_count = 0;
};

struct PolicyTable {
  SyscallEntry entries[abi::kSyscallLimit];
  uint32_t rule_count = 0;
  ArgRule rules[kMaxArgRules];
};

// Whether the table passes call `nr` whatever its arguments: no rule for it, and a
// passthrough fallback (not denied, killed, brokered, trapped or notified). Freestanding: the
// stub asks it too.
inline bool PassesUnconditionally(const PolicyTable& table, int nr) {
  if (nr < 0 || nr >= abi::kSyscallLimit) return false;
  const SyscallEntry& e = table.entries[nr];
  return e.rule_count == 0 && e.fallback.action == Action::kPassthrough;
}

// Copies what `from` uses (its entries and first rule_count rules) over *to, leaving the rest
// of *to as it was: into a fresh shared mapping, the ~80 KB of unused rules stay unfaulted.
inline void CopyUsedPart(const PolicyTable& from, PolicyTable* to) {
  for (int nr = 0; nr < abi::kSyscallLimit; ++nr) to->entries[nr] = from.entries[nr];
  to->rule_count = from.rule_count;
  for (uint32_t r = 0; r < from.rule_count && r < kMaxArgRules; ++r) to->rules[r] = from.rules[r];
}

}  // namespace snare::policy

#endif  // SNARE_POLICY_POLICY_TABLE_H_
