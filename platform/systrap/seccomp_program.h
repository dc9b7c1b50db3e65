// The guest's seccomp filter: a hand-written prologue that traps every syscall whose
// instruction pointer lies outside the stub's text, then the program policy/bpf_compiler
// makes of the stub-range policy: what the stub's own text may do (everything except calls
// that could leave snare's control: other execs, ptrace, touching the reserved fds, and
// whatever the guest's policy denies or kills).
#ifndef SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_
#define SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_

#include <linux/filter.h>

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "platform/systrap/stub_image.h"
#include "policy/policy_table.h"

namespace snare::systrap {

// The policy for calls made from the stub's text: syscalls the guest policy denies or kills
// are killed (a guest jumping into the stub must not bypass the policy), and so are exec
// of anything but the stub, ptrace and calls on the reserved fds.
std::expected<policy::PolicyTable, std::string> StubRangePolicy(const StubLayout& stub,
                                                                const policy::PolicyTable& guest);

std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(
    const StubLayout& stub, const policy::PolicyTable& guest);

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_
