// Compiles a PolicyTable to a classic BPF seccomp program: passthrough is SECCOMP_RET_ALLOW,
// deny SECCOMP_RET_ERRNO(err), kill SECCOMP_RET_KILL_PROCESS, broker and trap
// SECCOMP_RET_TRAP (the call must reach the stub's SIGSYS handler), notify
// SECCOMP_RET_USER_NOTIF. Other ABIs (int 0x80, x32) are killed.
//
// snare generates the instructions itself, as gVisor's pkg/seccomp does, instead of using
// libseccomp. libseccomp 2.5.4 merges all rules of a syscall into one decision tree: an
// unconditional rule shadows the conditional ones, a rule takes one comparison per argument,
// and two rules that order-compare one argument compile to a wrong program (the property
// test in bpf_compiler_test.cc found arguments where the kernel would have disagreed with
// the evaluator). Its model cannot say "the first matching rule decides" either. Here the
// program follows the table's semantics (policy_table.h) rule by rule:
//
//   prologue   arch != AUDIT_ARCH_X86_64 or nr >= 0x40000000 (x32): SECCOMP_RET_KILL_PROCESS
//   dispatch   a balanced binary search over the emitted syscall numbers (O(log n) jumps)
//   blocks     per syscall its rules in order, each a chain of 64-bit comparisons on
//              seccomp_data.args (high and low word) that returns the rule's action when
//              all hold and goes on to the next rule at the first that fails; then the
//              fallback
//
// The filter's default action is the most common fallback among the table's syscalls
// (BpfOptions can choose another); a syscall whose fallback is the default and that has no
// rules is not emitted. Numbers that are not x86-64 syscalls (the evaluator's ENOSYS: gaps
// in the table and numbers past it) get the default action too.
#ifndef SNARE_POLICY_BPF_COMPILER_H_
#define SNARE_POLICY_BPF_COMPILER_H_

#include <linux/filter.h>

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "policy/action.h"
#include "policy/policy_table.h"

namespace snare::policy {

// The seccomp return value a disposition compiles to.
uint32_t SeccompAction(Disposition d);

// The seccomp return value of the most common fallback among the table's syscalls.
uint32_t DefaultSeccompAction(const PolicyTable& table);

struct BpfOptions {
  // The filter's default action; by default DefaultSeccompAction(table).
  std::optional<Disposition> default_action;
};

// The whole filter: the x86-64 prologue, then CompileSyscallDispatch. Fails (it does not
// return a broken program) when the table is malformed or the program would exceed
// BPF_MAXINSNS instructions.
std::expected<std::vector<sock_filter>, std::string> CompileToBpf(const PolicyTable& table,
                                                                  const BpfOptions& options = {});

// Only the dispatch and the syscall blocks, without the prologue: a self-contained fragment
// that loads the syscall number itself and ends in RETs on every path, to place after a
// prologue of one's own (platform/systrap/seccomp_program.cc). Numbers the fragment does
// not emit get default_action (a seccomp return value). The caller checks arch and x32.
std::expected<std::vector<sock_filter>, std::string> CompileSyscallDispatch(
    const PolicyTable& table, uint32_t default_action);

}  // namespace snare::policy

#endif  // SNARE_POLICY_BPF_COMPILER_H_
