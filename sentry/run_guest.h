// Runs one guest program under a platform: resolves the program, makes the Machine, starts
// the guest, serves its traps until it exits, and reports statistics.
#ifndef SNARE_SENTRY_RUN_GUEST_H_
#define SNARE_SENTRY_RUN_GUEST_H_

#include "platform/platform.h"
#include "sentry/run_config.h"

namespace snare::sentry {

// Returns the exit status for snare: the guest's, or 126/127/1 for snare's own failures.
int RunGuest(const platform::Platform& platform, const RunConfig& config);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_RUN_GUEST_H_
