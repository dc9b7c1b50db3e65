// `snare run`: resolve the program, build the policy and filter, start the guest under the
// chosen platform, serve its traps until it exits, and report.
#ifndef SNARE_SENTRY_RUN_COMMAND_H_
#define SNARE_SENTRY_RUN_COMMAND_H_

#include "sentry/run_options.h"

namespace snare {

// Returns the exit status for snare: the guest's, or 126/127/1 for snare's own failures.
int RunCommand(const RunOptions& options);

}  // namespace snare

#endif  // SNARE_SENTRY_RUN_COMMAND_H_
