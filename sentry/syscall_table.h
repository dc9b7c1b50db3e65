// The x86-64 syscall table as data: number, name, argument kinds and default disposition.
//
// Freestanding: no libc, no allocation, no exceptions. The sentry and the stub (which runs
// inside the guest without libc) both include it.
#ifndef SNARE_SENTRY_SYSCALL_TABLE_H_
#define SNARE_SENTRY_SYSCALL_TABLE_H_

#include <stdint.h>

namespace snare {

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

// What the sentry does with a trapped syscall.
enum class Disposition : uint8_t {
  kPassthrough,  // the stub executes the original syscall in the guest
  kEmulate,      // the sentry computes the result
  kBroker,       // the sentry performs it in its own process and hands back the result
  kDeny,         // fails with deny_errno without running
  kKill,         // the guest process is killed by SIGSYS
};

struct SyscallInfo {
  uint16_t nr;
  const char* name;
  uint8_t nargs;
  ArgKind args[6];
  Disposition disposition;
  uint16_t deny_errno;  // used when disposition == kDeny
};

// One past the highest syscall number in the table.
inline constexpr int kSyscallLimit = 512;

// The table, sorted by number, one entry per x86-64 syscall (syscall_table_data.h).
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

}  // namespace snare

#endif  // SNARE_SENTRY_SYSCALL_TABLE_H_
