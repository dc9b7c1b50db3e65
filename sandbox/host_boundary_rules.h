// The syscall rules that keep what a confined guest does from giving anyone more rights on
// the host, enforced by the kernel's filter on both platforms, trapped or patched:
//   - no setuid or setgid bit on any file the guest makes or changes (chmod, fchmod,
//     fchmodat, fchmodat2, creat, mknod, mknodat, and open/openat that create): EPERM. The
//     host honours those bits on the guest's files, which a root-invoked guest writes as
//     root's through its idmapped mounts. openat2 keeps its mode behind a pointer the filter
//     cannot read: ENOSYS, so libc falls back to openat. (File capabilities need
//     CAP_SETFCAP, which the guest never holds.)
//   - no kernel keyring calls (add_key, keyctl, request_key: EPERM, as Docker's default
//     profile): keyrings are not namespaced. `--allow` grants them back.
//   - personality only as Docker's profile allows it (0, PER_LINUX32, UNAME26, a query).
//   - no AF_VSOCK sockets: they reach the hypervisor's host whatever the network namespace.
#ifndef SNARE_SANDBOX_HOST_BOUNDARY_RULES_H_
#define SNARE_SANDBOX_HOST_BOUNDARY_RULES_H_

#include "policy/policy_builder.h"

namespace snare::sandbox {

void AddHostBoundaryRules(policy::PolicyBuilder* builder);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_HOST_BOUNDARY_RULES_H_
