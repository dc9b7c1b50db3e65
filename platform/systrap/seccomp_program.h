// The guest's seccomp filter: a hand-written prologue that traps every syscall whose
// instruction pointer lies outside the stub's text, followed by libseccomp's program for
// what the stub's own text may do (everything except calls that could leave snare's
// control: other execs, ptrace, touching the reserved fds, and whatever the policy denies).
#ifndef SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_
#define SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_

#include <linux/filter.h>

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "platform/systrap/stub_image.h"
#include "sentry/syscall_policy.h"

namespace snare::systrap {

// rules: kSyscallLimit entries; syscalls whose rule is kDeny or kKill are killed when the
// stub's text makes them (a guest jumping into the stub must not bypass the policy).
std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(const StubLayout& stub,
                                                                         const PolicyRule* rules);

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_
