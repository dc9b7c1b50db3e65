// The inproc platform's sentry: the same policy decisions and --trace lines as the systrap
// sentry, computed inside the guest process on a Boost.Context fiber per (slot, depth).
// No isolation: the guest can write everything this uses. It is the measuring baseline.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_INPROC_SENTRY_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_INPROC_SENTRY_H_

#include <stdint.h>

#include "platform/systrap/sysmsg/shared_region.h"
#include "policy/verdict.h"

namespace snare::stub {

// Maps the fiber stacks; once per process image.
void InprocInit();
// Forgets the fibers of a slot this process is about to use for a new thread.
void InprocResetSlot(uint32_t slot_index);

// Both run on the fiber. `guest_on_altstack`: the trapped call came from the guest's
// alternate signal stack (its rsp lies in the SIGSYS frame's uc_stack); guest signals wait
// until the fiber is left, since one taken on the fiber would find the thread off that
// stack and start its handler at the stack's top, over the live frames there.
policy::Verdict InprocDecide(systrap::Slot* slot, uint32_t depth, bool guest_on_altstack);
// Writes the --trace line for a finished call (when tracing).
void InprocTrace(systrap::Slot* slot, uint32_t depth, bool guest_on_altstack, bool has_result,
                 int64_t result, const char* annotation);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_INPROC_SENTRY_H_
