// A hand-written seccomp BPF program (no libseccomp): on x86-64, the listed syscall
// numbers return SECCOMP_RET_TRAP with their own 16-bit data (seen as si_errno in the
// SIGSYS siginfo), everything else is allowed; another architecture kills the process.
#ifndef SNARE_KERNEL_GUEST_TRAP_FILTER_H_
#define SNARE_KERNEL_GUEST_TRAP_FILTER_H_

#include <signal.h>

#include <cstdint>
#include <expected>
#include <initializer_list>
#include <string>

namespace snare::lab {

struct TrapRule {
  long nr;
  uint16_t data;
};

// Sets no_new_privs and installs the filter in the calling thread's process. Filters
// cannot be removed, so callers do this in a forked child.
std::expected<void, std::string> InstallTrapFilter(std::initializer_list<TrapRule> rules);

// sigaction(sig) with SA_SIGINFO | extra_flags and an empty sa_mask.
std::expected<void, std::string> InstallSignalHandler(int sig,
                                                      void (*handler)(int, siginfo_t*, void*),
                                                      int extra_flags);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_TRAP_FILTER_H_
