// The guest's policy as the stub sees it: the table the sentry copied into the shared region,
// the stub's and region's protected ranges and the reserved fds. Guest memory holds the table,
// so a decision made with it is only as good as the kernel's stub-range filter behind it.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_GUEST_POLICY_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_GUEST_POLICY_H_

#include "policy/evaluator.h"

namespace snare::stub {

policy::PolicyContext GuestPolicy();

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_GUEST_POLICY_H_
