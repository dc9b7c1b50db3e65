// Compiles a PolicyTable to a classic BPF seccomp program with libseccomp: passthrough is
// SECCOMP_RET_ALLOW, deny SECCOMP_RET_ERRNO(err), kill SECCOMP_RET_KILL_PROCESS and broker
// SECCOMP_RET_TRAP (the call must reach the sentry). Other ABIs (int 0x80, x32) are killed.
//
// The filter's default action is the most common fallback; a syscall with argument rules
// must have that fallback (libseccomp lets an unconditional rule shadow conditional ones).
// Numbers that are not in the syscall table get the default action.
#ifndef SNARE_POLICY_BPF_COMPILER_H_
#define SNARE_POLICY_BPF_COMPILER_H_

#include <linux/filter.h>

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "policy/action.h"
#include "policy/policy_table.h"

namespace snare::policy {

// The seccomp return value a disposition compiles to.
uint32_t SeccompAction(Disposition d);

std::expected<std::vector<sock_filter>, std::string> CompileToBpf(const PolicyTable& table);

}  // namespace snare::policy

#endif  // SNARE_POLICY_BPF_COMPILER_H_
