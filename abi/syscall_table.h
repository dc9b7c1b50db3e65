// The x86-64 syscall table as data: number, name and argument kinds (how strace shows each
// argument). ABI facts only; dispositions are policy (policy/).
//
// Freestanding: no libc, no allocation, no exceptions. The sentry and the stub (which runs
// inside the guest without libc) both include it.
#ifndef SNARE_ABI_SYSCALL_TABLE_H_
#define SNARE_ABI_SYSCALL_TABLE_H_

#include <stdint.h>

namespace snare::abi {

// How an argument is printed in --trace and which arguments the policy inspects.
enum class ArgKind : uint8_t {
  kInt,     // signed decimal
  kUint,    // unsigned decimal (sizes, counts)
  kHex,     // flags, masks, modes, addresses that are not strings
  kFd,      // file descriptor (signed decimal; inspected for reserved fds)
  kPath,    // NUL-terminated path in guest memory (the stub copies a prefix for --trace)
  kPtr,     // any other pointer (printed in hex)
  kSignal,  // signal number
};

struct SyscallInfo {
  uint16_t nr;
  const char* name;
  uint8_t nargs;
  ArgKind args[6];
};

// One past the highest syscall number in the table.
inline constexpr int kSyscallLimit = 512;

// The table, sorted by number, one entry per x86-64 syscall.
extern const SyscallInfo kSyscalls[];
extern const int kSyscallCount;

// Returns the entry for nr, or nullptr for numbers that are not x86-64 syscalls.
// Constant time; safe in a signal handler.
const SyscallInfo* FindSyscall(uint64_t nr);

// Returns the entry whose name equals name (NUL-terminated), or nullptr.
const SyscallInfo* FindSyscallByName(const char* name);

// Name for --trace: the table's name, or nullptr when unknown.
inline const char* SyscallName(uint64_t nr) {
  const SyscallInfo* info = FindSyscall(nr);
  return info ? info->name : nullptr;
}

}  // namespace snare::abi

#endif  // SNARE_ABI_SYSCALL_TABLE_H_
