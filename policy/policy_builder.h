// Builds a PolicyTable the way sandbox2's PolicyBuilder does: fluent calls that record the
// first error instead of failing one by one, reported by TryBuild().
//
//   auto table = PolicyBuilder()
//                    .Deny(__NR_ptrace, EPERM)
//                    .DenyByName("openat", EACCES)
//                    .When(__NR_close, {ArgInt32Eq(0, 1022)}, {Action::kKill})
//                    .TryBuild();
//
// Every syscall starts as passthrough; numbers that are not x86-64 syscalls are always
// denied with ENOSYS. A later call for the same syscall replaces its fallback. Rules are
// tried in order and the first that matches decides (policy_table.h): When appends one,
// WhenFirst puts one before the syscall's others.
#ifndef SNARE_POLICY_POLICY_BUILDER_H_
#define SNARE_POLICY_POLICY_BUILDER_H_

#include <cstdint>
#include <expected>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "policy/action.h"
#include "policy/arg_check.h"
#include "policy/policy_table.h"

namespace snare::policy {

class PolicyBuilder {
 public:
  PolicyBuilder();

  // The disposition when no rule of the syscall matches.
  PolicyBuilder& Set(uint32_t nr, Disposition d);
  PolicyBuilder& Passthrough(uint32_t nr) { return Set(nr, {Action::kPassthrough, 0}); }
  PolicyBuilder& Broker(uint32_t nr) { return Set(nr, {Action::kBroker, 0}); }
  PolicyBuilder& Deny(uint32_t nr, int err) { return Set(nr, {Action::kDeny, Errno(err)}); }
  PolicyBuilder& Kill(uint32_t nr) { return Set(nr, {Action::kKill, 0}); }
  // The same by the kernel's name ("openat"); an unknown name is an error.
  PolicyBuilder& SetByName(std::string_view name, Disposition d);
  PolicyBuilder& DenyByName(std::string_view name, int err) {
    return SetByName(name, {Action::kDeny, Errno(err)});
  }
  // Every syscall at once (before specific ones).
  PolicyBuilder& SetAll(Disposition d);

  // A rule after the syscall's others (in the order of the calls, whatever calls for other
  // syscalls come between): when no earlier rule matched and every check holds, the syscall
  // gets `d`. 1 to kMaxArgChecks checks; any argument may be checked several times.
  PolicyBuilder& When(uint32_t nr, std::initializer_list<ArgCheck> all_of, Disposition d);
  PolicyBuilder& When(uint32_t nr, const std::vector<ArgCheck>& all_of, Disposition d);
  // The same rule before the syscall's existing ones (exceptions that must win); of two
  // WhenFirst calls for one syscall, the later one comes first.
  PolicyBuilder& WhenFirst(uint32_t nr, std::initializer_list<ArgCheck> all_of, Disposition d);
  PolicyBuilder& WhenFirst(uint32_t nr, const std::vector<ArgCheck>& all_of, Disposition d);

  // The table, or the first error recorded ("unknown syscall 'opn'", "too many rules").
  std::expected<PolicyTable, std::string> TryBuild() const;
  // The same written into *table, for callers that keep one table where it will live: each
  // 82 KB copy on the way is 20 fresh pages, and a page fault costs ~15 us in some VMs.
  // Rules past the ones built are left as they were (nothing reads them).
  std::expected<void, std::string> BuildInto(PolicyTable* table) const;

 private:
  struct Rule {
    uint32_t nr;
    std::vector<ArgCheck> checks;
    Disposition d;
  };
  static uint16_t Errno(int err);
  bool CheckNr(uint32_t nr);
  bool CheckRule(uint32_t nr, const std::vector<ArgCheck>& all_of, Disposition d);
  void Error(std::string message);

  Disposition fallback_[abi::kSyscallLimit];
  std::vector<Rule> rules_;  // in the order they are tried for each syscall
  std::string error_;
};

}  // namespace snare::policy

#endif  // SNARE_POLICY_POLICY_BUILDER_H_
