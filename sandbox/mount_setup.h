// The guest's filesystem: in a new mount namespace, a new root built from the spec's mounts,
// entered with pivot_root; the host's tree is gone from the namespace afterwards.
//
// Runs in the sandbox's init, which holds CAP_SYS_ADMIN in the sandbox's user namespace.
#ifndef SNARE_SANDBOX_MOUNT_SETUP_H_
#define SNARE_SANDBOX_MOUNT_SETUP_H_

#include <expected>
#include <map>
#include <string>

#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

// prepared: detached mount trees (open_tree fds, e.g. an idmapped working directory) to
// attach at these targets instead of binding their source. Leaves the caller in `cwd` inside
// (at "/" under another root that has no `cwd`).
std::expected<void, std::string> SetUpMounts(const SandboxSpec& spec,
                                             const std::map<std::string, int>& prepared,
                                             const std::string& cwd);

// For a process of its own that looks paths up as the guest will see them (it changes the
// caller's namespaces for good): a private copy of the guest's file tree, the same root and
// mounts less /dev and /proc (they need the guest's namespaces), in a new mount namespace
// (and, unless the caller is root, a user namespace mapping only the caller's own ids).
std::expected<void, std::string> EnterGuestTree(const SandboxSpec& spec, const std::string& cwd);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_MOUNT_SETUP_H_
