// Leaving the sandbox's setup privileges behind: locked securebits (exec never regains
// capabilities, not even as uid 0), the ids the guest runs as, no supplementary groups where
// the kernel allows clearing them, and no capabilities in any set.
#ifndef SNARE_SANDBOX_CAPABILITIES_H_
#define SNARE_SANDBOX_CAPABILITIES_H_

#include <sys/types.h>

#include <expected>
#include <string>
#include <vector>

namespace snare::sandbox {

// Call with the setup capabilities still held (CAP_SETPCAP, CAP_SETUID, CAP_SETGID in the
// sandbox's user namespace).
std::expected<void, std::string> DropPrivileges(uid_t uid, gid_t gid);

// The capabilities this process holds in its effective set, by their kernel names
// ("CAP_SYS_ADMIN"): what a guest that is not confined keeps.
std::vector<std::string> EffectiveCapabilityNames();

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_CAPABILITIES_H_
