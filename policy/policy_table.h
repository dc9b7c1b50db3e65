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
  // Only rules[0, rule_count) are ever written, read or copied: the other ~78 KB of a table
  // stay untouched, so a table made or copied costs no page faults for them (a fresh page
  // costs 12-24 us on these VMs; a snare run makes and copies several tables).
  union {
    ArgRule rules[kMaxArgRules];
  };

  PolicyTable() {}
  PolicyTable(const PolicyTable& other) { CopyUsedPartOf(other); }
  PolicyTable& operator=(const PolicyTable& other) {
    if (this != &other) CopyUsedPartOf(other);
    return *this;
  }

 private:
  void CopyUsedPartOf(const PolicyTable& from) {
    for (int nr = 0; nr < abi::kSyscallLimit; ++nr) entries[nr] = from.entries[nr];
    rule_count = from.rule_count;
    for (uint32_t r = 0; r < from.rule_count && r < kMaxArgRules; ++r) rules[r] = from.rules[r];
  }
};

// Whether the table passes call `nr` whatever its arguments: no rule for it, and a
// passthrough fallback (not denied, killed, brokered, trapped or notified). Freestanding: the
// stub asks it too.
inline bool PassesUnconditionally(const PolicyTable& table, int nr) {
  if (nr < 0 || nr >= abi::kSyscallLimit) return false;
  const SyscallEntry& e = table.entries[nr];
  return e.rule_count == 0 && e.fallback.action == Action::kPassthrough;
}

}  // namespace snare::policy

#endif  // SNARE_POLICY_POLICY_TABLE_H_
