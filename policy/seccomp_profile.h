// Seccomp profiles as container engines write them: the `linux.seccomp` object of an OCI
// runtime config, and the profile files of Docker and podman (moby's default.json,
// /usr/share/containers/seccomp.json), which add per-entry `includes`/`excludes`.
//
// A profile only ever restricts: a call gets the stricter of what snare's own policy and the
// profile say (kill over deny over everything else; where the profile allows, snare's own
// disposition stands, emulation and brokering included). Actions map as
//   SCMP_ACT_ALLOW, SCMP_ACT_LOG           -> snare's disposition
//   SCMP_ACT_ERRNO(errnoRet)                -> deny with errnoRet (default defaultErrnoRet,
//                                              else EPERM)
//   SCMP_ACT_KILL, _KILL_PROCESS, _KILL_THREAD, SCMP_ACT_TRAP -> kill (SIGSYS)
//   SCMP_ACT_TRACE                          -> deny with ENOSYS (what the kernel does when no
//                                              tracer is attached)
// SCMP_ACT_NOTIFY (a seccomp agent) is refused. Syscall names this table does not know
// (other architectures, newer kernels) are skipped, as libseccomp skips them.
#ifndef SNARE_POLICY_SECCOMP_PROFILE_H_
#define SNARE_POLICY_SECCOMP_PROFILE_H_

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "policy/action.h"
#include "policy/arg_check.h"
#include "policy/policy_table.h"

namespace snare::policy {

struct ProfileRule {
  uint32_t nr;
  std::vector<ArgCheck> all_of;  // empty: the call's unconditional disposition
  Disposition d;                 // kPassthrough stands for "allowed by the profile"
};

struct SeccompProfile {
  Disposition fallback;            // defaultAction
  std::vector<ProfileRule> rules;  // in the profile's order
  std::vector<std::string> skipped_names;
};

// What `includes`/`excludes` are matched against (profile files only).
struct ProfileHost {
  std::vector<std::string> caps;  // capabilities the guest holds ("CAP_SYS_ADMIN")
  int kernel_major = 0, kernel_minor = 0;
};

// Parses a profile; `name` starts error messages, which name the key's place in the file
// ("seccomp.json: syscalls[3].action: unknown action 'SCMP_ACT_FOO'").
std::expected<SeccompProfile, std::string> ParseSeccompProfile(std::string_view json,
                                                               std::string_view name,
                                                               const ProfileHost& host);

// ParseSeccompProfile of the file at `path` (at most 1 MiB); errors start with the path.
std::expected<SeccompProfile, std::string> ReadSeccompProfile(const std::string& path,
                                                              const ProfileHost& host);

// The host as a guest under snare sees it: the running kernel's version, and `caps`.
ProfileHost CurrentProfileHost(std::vector<std::string> caps);

// `table` restricted by `profile` (see above); fails when the combined rules do not fit the
// table (more than kMaxArgRules, or more than kMaxArgChecks checks in one rule).
std::expected<PolicyTable, std::string> RestrictByProfile(const PolicyTable& table,
                                                          const SeccompProfile& profile);
// The same, written over *table (no 82 KB copy on the way; see PolicyBuilder::BuildInto).
std::expected<void, std::string> RestrictByProfileInPlace(const SeccompProfile& profile,
                                                          PolicyTable* table);

}  // namespace snare::policy

#endif  // SNARE_POLICY_SECCOMP_PROFILE_H_
