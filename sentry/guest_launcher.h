// Starts the guest. Confined (the sandbox profile): the sentry clones, without the invoking
// user's supplementary groups, an init in a new user, pid, mount, IPC, UTS and (without host
// network) network namespace; init builds the guest's root and forks the guest, which
// drops every privilege, restricts itself with Landlock and enters the platform. Unconfined
// (the trace profile): a pid namespace when the kernel allows it, nothing else. Either way
// the guest's init dies with the sentry and takes every guest process with it.
#ifndef SNARE_SENTRY_GUEST_LAUNCHER_H_
#define SNARE_SENTRY_GUEST_LAUNCHER_H_

#include <sys/types.h>

#include <expected>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "sandbox/guest_cgroup.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sentry {

struct LaunchSpec {
  std::string path;               // resolved program (a path inside the sandbox)
  std::vector<std::string> argv;  // argv[0] as the user gave it
  platform::GuestEntry entry;
  const sandbox::SandboxSpec* sandbox = nullptr;  // null or !confine: unconfined
  // Confined: the cgroup init joins before it starts anything (null: none).
  const sandbox::GuestCgroup* cgroup = nullptr;
  std::string cwd;  // the guest's working directory
};

struct LaunchedGuest {
  pid_t init_pid = -1;             // the process to wait for and to signal
  bool own_pid_namespace = false;  // false: fallback without the kill-on-exit guarantee
  int guest_proc_fd = -1;          // confined: the guest's /proc (tids the guest reports)
};

// Call it while the process has one thread (it refuses otherwise): its children run snare's
// code between clone and exec, where a lock held by a thread they did not inherit never frees.
std::expected<LaunchedGuest, std::string> LaunchGuest(const LaunchSpec& spec);

// Waits for the guest's init and returns the status a shell would report (128+N for a
// death by signal N).
int WaitGuest(const LaunchedGuest& guest);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_GUEST_LAUNCHER_H_
