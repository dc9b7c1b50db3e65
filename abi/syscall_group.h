// Named groups of x86-64 syscalls that reach the same effect under different numbers
// (sandbox2's AllowOpen/AllowStat families): `--kill=mkdir` that leaves mkdirat working
// stops nobody, so a rule naming one member covers its whole group (policy/syscall_rule.h).
// A group holds only real aliases: calls through which a guest gets what another member
// does (openat for open, fchdir of an O_PATH fd for chdir), never calls that merely look
// alike. Each syscall belongs to at most one group.
//
// Freestanding like the syscall table: constant data, no allocation, no libc.
#ifndef SNARE_ABI_SYSCALL_GROUP_H_
#define SNARE_ABI_SYSCALL_GROUP_H_

#include <stdint.h>

namespace snare::abi {

inline constexpr int kMaxGroupMembers = 8;

struct SyscallGroup {
  const char* name;     // "file-open"; rules name it "@file-open"
  const char* summary;  // what its members do, for `snare run --list-groups`
  uint8_t count;
  const char* members[kMaxGroupMembers];  // the syscall table's names
};

extern const SyscallGroup kSyscallGroups[];
extern const int kSyscallGroupCount;

// The group called name (without the '@'), or nullptr.
const SyscallGroup* FindSyscallGroup(const char* name);

// The group syscall nr belongs to, or nullptr when it has no aliases.
const SyscallGroup* GroupOfSyscall(uint64_t nr);

}  // namespace snare::abi

#endif  // SNARE_ABI_SYSCALL_GROUP_H_
