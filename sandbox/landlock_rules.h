// Landlock as a second wall around the guest (ABI 1..7): everything readable and executable,
// writes only beneath the writable mounts, the /dev nodes usable; TCP connect and bind only
// to the spec's ports when it lists any; no signals to and no abstract-socket connections
// with processes outside the sandbox (ABI 6 scopes). Applied by the guest to itself after
// the mounts are in place, with no_new_privs set.
#ifndef SNARE_SANDBOX_LANDLOCK_RULES_H_
#define SNARE_SANDBOX_LANDLOCK_RULES_H_

#include <expected>
#include <string>

#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

// The kernel's Landlock ABI version; 0 when Landlock is off.
int LandlockAbi();

// Restricts the calling thread and its future children.
std::expected<void, std::string> RestrictWithLandlock(const SandboxSpec& spec);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_LANDLOCK_RULES_H_
