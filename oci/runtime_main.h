// snare-runtime: an OCI runtime for podman, Docker, containerd and Kubernetes. The container
// plumbing (namespaces, mounts, cgroups, devices) stays runc's: `create` and `run` rewrite
// the bundle's config.json (bundle_config.h), then every command goes to runc as it came.
#ifndef SNARE_OCI_RUNTIME_MAIN_H_
#define SNARE_OCI_RUNTIME_MAIN_H_

#include <string>
#include <vector>

namespace snare::oci {

// argv: after the program name. `self`: the path of this (static) executable, bound into
// each container as its snare. Returns an exit status, or does not return (runc exec'd).
int RuntimeMain(const std::vector<std::string>& argv, const std::string& self);

}  // namespace snare::oci

#endif  // SNARE_OCI_RUNTIME_MAIN_H_
