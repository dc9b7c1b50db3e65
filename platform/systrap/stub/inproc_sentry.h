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

policy::Verdict InprocDecide(systrap::Slot* slot, uint32_t depth, uint64_t nr,
                             const uint64_t args[6]);
// Writes the --trace line for a finished call (when tracing).
void InprocTrace(systrap::Slot* slot, uint32_t depth, bool has_result, int64_t result,
                 const char* annotation);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_INPROC_SENTRY_H_
