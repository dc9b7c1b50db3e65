// The guest's seccomp filter: a hand-written prologue that traps every syscall whose
// instruction pointer lies outside the stub's text, then the program policy/bpf_compiler
// makes of the stub-range policy. That policy is the kernel's check on everything the stub
// executes, so that neither a guest jumping into the stub's text nor a reply forged in the
// shared region runs what the guest's policy refuses:
//   - the stub's own calls, each pinned by argument checks to the one thing it does with it
//     (pointers into sealed read-only stub data or the shared region, fixed fds and flags);
//   - the guest's policy, for the calls the stub makes on the guest's behalf (denied calls
//     fail with their errno, killed ones kill, brokered ones belong to the sentry);
//   - never: the reserved fds, SIGSYS, the GS base, ptrace, execve, or execveat of anything
//     but the stub.
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

struct StubRangeOptions {
  // inproc: the stub is the sentry and performs brokered calls itself.
  bool stub_runs_brokered_calls = false;
};

// The syscalls the guest's policy sends to the sentry as seccomp user notifications
// (fallback Action::kNotify), from the guest's code and the stub's alike.
std::vector<uint32_t> NotifiedSyscalls(const policy::PolicyTable& guest);

// The policy for calls made from the stub's text.
std::expected<policy::PolicyTable, std::string> StubRangePolicy(const StubLayout& stub,
                                                                const policy::PolicyTable& guest,
                                                                const StubRangeOptions& options);

std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(
    const StubLayout& stub, const policy::PolicyTable& guest, const StubRangeOptions& options = {});

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SECCOMP_PROGRAM_H_
