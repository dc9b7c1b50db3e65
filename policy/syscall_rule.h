// A syscall rule as a user writes it, on the command line (`--deny=NAME[:ERRNO]`,
// `--kill=NAME`) and in policy files: NAME is a syscall, which stands for its whole group of
// aliases (abi/syscall_group.h: `--kill=mkdir` also kills mkdirat), or a group, `@file-open`.
// Both paths parse rules here, so both expand them alike.
#ifndef SNARE_POLICY_SYSCALL_RULE_H_
#define SNARE_POLICY_SYSCALL_RULE_H_

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "policy/action.h"
#include "policy/policy_builder.h"

namespace snare::policy {

struct SyscallRule {
  std::string spec;           // as written ("mkdir", "@file-open:EACCES")
  std::vector<uint32_t> nrs;  // every syscall it covers, ascending
  Disposition disposition;    // kDeny with its errno (EPERM unless given), or kKill
};

// spec: NAME or NAME:ERRNO (ERRNO: a name like EACCES or a number from 1 to 4095; deny only).
// action: kDeny, kKill, kNotify or kPassthrough (--allow: the call runs as the guest made it;
// argument rules such as the sandbox's setuid refusals stay). `source` names where the rule came
// from in messages ("--kill",
// "\"kill\""). An unknown name's error suggests the closest syscall or group.
std::expected<SyscallRule, std::string> ParseSyscallRule(std::string_view spec, Action action,
                                                         std::string_view source);

// Sets every syscall the rule covers (a later rule for the same syscall wins).
void ApplySyscallRule(const SyscallRule& rule, PolicyBuilder* builder);

// One line per group: "@file-open  open or create a file: open openat openat2 ...".
std::string SyscallGroupListing();

}  // namespace snare::policy

#endif  // SNARE_POLICY_SYSCALL_RULE_H_
