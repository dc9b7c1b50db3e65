// snare's default syscall policy: everything passes through except the calls a sandboxed
// program has no business making (they fail as they would for an unprivileged process, or
// with ENOSYS where the kernel lacks them), and uname, which the sentry answers.
#ifndef SNARE_POLICY_DEFAULT_POLICY_H_
#define SNARE_POLICY_DEFAULT_POLICY_H_

#include "policy/policy_builder.h"

namespace snare::policy {

// A builder holding the defaults; callers add their overrides, then TryBuild().
PolicyBuilder DefaultPolicy();

}  // namespace snare::policy

#endif  // SNARE_POLICY_DEFAULT_POLICY_H_
