// The confined launch (see guest_launcher.h): namespaces, the guest's root, init, the guest.
#ifndef SNARE_SENTRY_CONFINED_LAUNCH_H_
#define SNARE_SENTRY_CONFINED_LAUNCH_H_

#include <expected>
#include <string>

#include "sentry/guest_exec.h"
#include "sentry/guest_launcher.h"

namespace snare::sentry {

std::expected<LaunchedGuest, std::string> LaunchConfined(const LaunchSpec& spec, GuestExec& exec);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_CONFINED_LAUNCH_H_
