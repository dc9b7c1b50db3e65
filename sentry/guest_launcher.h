// Starts the guest: a new pid namespace whose init (snare code, not sandboxed) dies with
// the sentry and takes every guest process with it; the guest itself enters the platform
// (platform::GuestEntry: the stub, for systrap and inproc) with its fds in place.
#ifndef SNARE_SENTRY_GUEST_LAUNCHER_H_
#define SNARE_SENTRY_GUEST_LAUNCHER_H_

#include <sys/types.h>

#include <expected>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace snare::sentry {

struct LaunchSpec {
  std::string path;               // resolved program
  std::vector<std::string> argv;  // argv[0] as the user gave it
  platform::GuestEntry entry;
};

struct LaunchedGuest {
  pid_t init_pid = -1;
  bool own_pid_namespace = false;  // false: fallback without the kill-on-exit guarantee
};

std::expected<LaunchedGuest, std::string> LaunchGuest(const LaunchSpec& spec);

// Waits for the guest's init and returns the status a shell would report (128+N for a
// death by signal N).
int WaitGuest(const LaunchedGuest& guest);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_GUEST_LAUNCHER_H_
