// Named starting points for a run, refined by options and policy files:
//   sandbox (default)  the host's system directories read-only (host_view.h: the rest of
//                      "/" hidden, $PATH's install roots and a private $HOME shown), the
//                      working directory writable, a private /tmp and /run; a minimal /dev;
//                      /proc of the guest's own pid namespace; no network but loopback; no
//                      host processes; no host terminal; unprivileged, without
//                      capabilities; Landlock.
//   trace              no confinement: snare as a plain interposer, for measuring and
//                      tracing programs exactly as they run on the host.
#ifndef SNARE_SANDBOX_PROFILES_H_
#define SNARE_SANDBOX_PROFILES_H_

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "policy/policy_builder.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

inline constexpr std::string_view kDefaultProfile = "sandbox";

// The sandbox profile's limits, so that a fork bomb, an fd leak or a memory hog hurts only
// the guest. nproc counts the guest's tasks (threads too) in its user namespace; it stays
// below the stub's 1024 thread slots, so a guest runs out of tasks (EAGAIN) before snare
// runs out of slots. The sentry and init are other users there and do not count.
inline constexpr rlim_t kDefaultNproc = 1000;
inline constexpr rlim_t kDefaultNofile = 4096;
// nproc and nofile as above, as (address space) half the machine's memory but at least
// 2 GiB; each capped at snare's own hard limit. --rlimit replaces each.
std::vector<RlimitSpec> DefaultSandboxRlimits();
// What the sandbox's tmpfs hold together by default: a quarter of the machine's memory, at
// least 256 MiB.
uint64_t DefaultTmpfsSize();

// cwd: the working directory the guest starts in (writable under the sandbox profile).
std::expected<SandboxSpec, std::string> ProfileSpec(std::string_view name, const std::string& cwd);
std::string_view ProfileNames();

// The syscall rules a confined guest gets on top of the default policy: no terminal input
// injection (TIOCSTI, TIOCLINUX), no new user namespaces, clone3 as ENOSYS (its flags live in
// memory the filter cannot read, so clone is used instead), and the host boundary's
// (host_boundary_rules.h: no setuid files, no keyrings).
void AddConfinementRules(policy::PolicyBuilder* builder);

// The part of them the container profile keeps: no terminal input injection. (New user
// namespaces are the engine's seccomp profile's to allow or refuse, as under runc.)
void AddTerminalRules(policy::PolicyBuilder* builder);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_PROFILES_H_
