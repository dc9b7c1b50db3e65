// The decision for one trapped syscall: the table's disposition, refined by per-argument
// checks that keep the guest away from snare's own fds and memory.
//
// Freestanding: the systrap sentry calls it in its process; the inproc stub calls it inside
// the guest. Async-signal-safe, allocation-free.
#ifndef SNARE_SENTRY_SYSCALL_POLICY_H_
#define SNARE_SENTRY_SYSCALL_POLICY_H_

#include <stdint.h>

#include "sentry/syscall_table.h"

namespace snare {

// Per-syscall rule the user may override (--deny, --kill).
struct PolicyRule {
  uint8_t disposition;  // Disposition
  uint8_t pad;
  uint16_t deny_errno;
};

struct Verdict {
  enum Kind : uint8_t { kPassthrough, kReturn, kKill, kBroker };
  Kind kind = kPassthrough;
  int64_t value = 0;          // kReturn: the result (-errno on failure)
  uint64_t copyout_addr = 0;  // kReturn: bytes to store at this guest address first
  uint32_t copyout_len = 0;
  uint8_t copyout[32] = {};
};

// An address range the guest may not map over, unmap, reprotect or advise.
struct ProtectedRange {
  uint64_t start;
  uint64_t end;
};

struct PolicyContext {
  const PolicyRule* rules;  // kSyscallLimit entries
  const ProtectedRange* protected_ranges;
  int protected_count;
  int first_reserved_fd;  // fds [first, last] belong to snare
  int last_reserved_fd;
};

Verdict Decide(const PolicyContext& ctx, uint64_t nr, const uint64_t args[6]);

// Fills rules from the table's defaults.
void DefaultRules(PolicyRule* rules);

}  // namespace snare

#endif  // SNARE_SENTRY_SYSCALL_POLICY_H_
