// Linux x86-64 errno numbers as data: symbolic names and glibc's strerror() texts.
//
// Freestanding: no libc, no allocation, no exceptions, no static constructors. The sentry and
// the stub (which runs inside the guest without libc) both link it.
#ifndef SNARE_ABI_ERRNO_NAME_H_
#define SNARE_ABI_ERRNO_NAME_H_

namespace snare::abi {

// Symbolic name ("ENOENT") or nullptr for unknown numbers. Aliases resolve to the primary
// name (EWOULDBLOCK -> "EAGAIN", EDEADLOCK -> "EDEADLK", ENOTSUP -> "EOPNOTSUPP").
// Covers 1..133 (EPERM..EHWPOISON) and the kernel-internal codes 512..516
// (ERESTARTSYS..ERESTART_RESTARTBLOCK).
const char* ErrnoName(int err);

// glibc's strerror() text ("No such file or directory"), or "Unknown error" for unknown
// numbers. For 512..516 the text strace prints ("To be restarted if SA_RESTART is set").
const char* ErrnoDescription(int err);

// Number for a symbolic name ("ENOENT" -> 2), or -1. Accepts the aliases EWOULDBLOCK,
// EDEADLOCK and ENOTSUP. Case-sensitive; nullptr gives -1.
int ErrnoFromName(const char* name);

}  // namespace snare::abi

#endif  // SNARE_ABI_ERRNO_NAME_H_
