// `snare run --seccomp-profile FILE` and snare-runtime's linux.seccomp: a container engine's
// seccomp profile (Docker's, podman's or OCI's JSON), parsed and applied to the default
// policy. Bad input must come back as an error, never a crash, a hang or an exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/default_policy.h"
#include "policy/seccomp_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const snare::policy::PolicyTable kTable = *snare::policy::DefaultPolicy().TryBuild();
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  // A fixed host: the fuzz input alone decides includes/excludes.
  const snare::policy::ProfileHost host{{"CAP_SYS_ADMIN", "CAP_NET_ADMIN"}, 6, 1};
  auto profile = snare::policy::ParseSeccompProfile(json, "seccomp.json", host);
  if (!profile) {
    if (profile.error().empty()) __builtin_trap();  // an error must say what
    return 0;
  }
  (void)snare::policy::RestrictByProfile(kTable, *profile);
  return 0;
}
