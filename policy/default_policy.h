// snare's default syscall policy: everything passes through except the calls a sandboxed
// program has no business making (they fail as they would for an unprivileged process, or
// with ENOSYS where the kernel lacks them), and uname, which the sentry answers.
#ifndef SNARE_POLICY_DEFAULT_POLICY_H_
#define SNARE_POLICY_DEFAULT_POLICY_H_

#include "policy/policy_builder.h"

namespace snare::policy {

// A builder holding the defaults; callers add their overrides, then TryBuild().
PolicyBuilder DefaultPolicy();

// Only what the interposition itself needs, for a guest whose engine decides the rest (the
// container profile: the engine's seccomp profile and capabilities): io_uring refused (its
// submissions would run unseen by the trap), syscall user dispatch refused (it would turn
// the stub's own calls into SIGSYS), uname answered by the sentry.
PolicyBuilder InterpositionPolicy();

}  // namespace snare::policy

#endif  // SNARE_POLICY_DEFAULT_POLICY_H_
