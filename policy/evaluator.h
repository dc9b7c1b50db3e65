// Deciding one trapped syscall: the policy table's disposition (Evaluate, what the seccomp
// compiler also encodes), then the guards no policy may switch off: the guest cannot touch
// snare's reserved fds or protected memory, cannot change the SIGSYS handler or GS base.
//
// Freestanding: the systrap sentry calls it in its process; the inproc stub calls it inside
// the guest. Async-signal-safe, allocation-free.
#ifndef SNARE_POLICY_EVALUATOR_H_
#define SNARE_POLICY_EVALUATOR_H_

#include <stdint.h>

#include "policy/action.h"
#include "policy/policy_table.h"
#include "policy/verdict.h"

namespace snare::policy {

// An address range the guest may not map over, unmap, reprotect or advise.
struct ProtectedRange {
  uint64_t start;
  uint64_t end;
};

struct PolicyContext {
  const PolicyTable* table;
  const ProtectedRange* protected_ranges;
  int protected_count;
  int first_reserved_fd;  // fds [first, last] belong to snare
  int last_reserved_fd;
};

// The table's disposition for nr with these arguments: the first of the syscall's rules
// whose checks all hold, else its fallback. Numbers that are not x86-64 syscalls are
// denied with ENOSYS.
Disposition Evaluate(const PolicyTable& table, uint64_t nr, const uint64_t args[6]);

// Evaluate, then the guards. kDeny returns -err, kKill kills, kBroker goes to the sentry;
// kPassthrough, kNotify (the sentry already decided on the notification path) and kTrap
// (only in platform filters, never in guest policies) pass through, guards permitting.
Verdict Decide(const PolicyContext& ctx, uint64_t nr, const uint64_t args[6]);

// Whether Decide passes nr through whatever its arguments: the table has no rule for it and
// lets it pass, and no guard looks at it (no fd argument, not a memory or signal call the
// guards check). The sentry answers these without evaluating each request.
bool AlwaysPassesThrough(const PolicyContext& ctx, uint64_t nr);

}  // namespace snare::policy

#endif  // SNARE_POLICY_EVALUATOR_H_
