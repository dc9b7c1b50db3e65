// A compiled policy as plain data: per syscall number a fallback disposition, and optionally
// argument rules (each an AND of ArgChecks; any matching rule gives the syscall's on_match
// disposition). The evaluator (evaluator.h) and the seccomp compiler (bpf_compiler.h) both
// read it, so what the sentry decides and what the kernel enforces come from one value.
//
// One on_match disposition per syscall is what libseccomp compiles faithfully: rules with
// different actions for one syscall are merged in an order of its own.
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

inline constexpr int kMaxArgChecks = 4;
inline constexpr int kMaxArgRules = 64;

struct ArgRule {
  uint8_t count = 0;
  ArgCheck checks[kMaxArgChecks];
};

struct SyscallEntry {
  Disposition fallback;  // when no rule matches (or there are none)
  Disposition on_match;  // when one of the rules matches
  uint8_t first_rule = 0;
  uint8_t rule_count = 0;
};

struct PolicyTable {
  SyscallEntry entries[abi::kSyscallLimit];
  uint32_t rule_count = 0;
  ArgRule rules[kMaxArgRules];
};

}  // namespace snare::policy

#endif  // SNARE_POLICY_POLICY_TABLE_H_
