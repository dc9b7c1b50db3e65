// Named starting points for a run, refined by options and policy files:
//   sandbox (default)  the host's files read-only except the working directory and a
//                      private /tmp; a minimal /dev; /proc of the guest's own pid
//                      namespace; no network but loopback; no host processes; no host
//                      terminal; unprivileged, without capabilities; Landlock.
//   trace              no confinement: snare as a plain interposer, for measuring and
//                      tracing programs exactly as they run on the host.
#ifndef SNARE_SANDBOX_PROFILES_H_
#define SNARE_SANDBOX_PROFILES_H_

#include <expected>
#include <string>
#include <string_view>

#include "policy/policy_builder.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

inline constexpr std::string_view kDefaultProfile = "sandbox";

// cwd: the working directory the guest starts in (writable under the sandbox profile).
std::expected<SandboxSpec, std::string> ProfileSpec(std::string_view name, const std::string& cwd);
std::string_view ProfileNames();

// The syscall rules a confined guest gets on top of the default policy: no terminal input
// injection (TIOCSTI, TIOCLINUX), no new user namespaces, clone3 as ENOSYS (its flags live in
// memory the filter cannot read, so clone is used instead).
void AddConfinementRules(policy::PolicyBuilder* builder);

// The part of them the container profile keeps: no terminal input injection. (New user
// namespaces are the engine's seccomp profile's to allow or refuse, as under runc.)
void AddTerminalRules(policy::PolicyBuilder* builder);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_PROFILES_H_
