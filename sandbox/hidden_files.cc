#include "sandbox/hidden_files.h"

#include <climits>
#include <cstdlib>

namespace snare::sandbox {
namespace {

bool IsUnder(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

}  // namespace

const MountSpec* MountHolding(const SandboxSpec& spec, const std::string& path) {
  const MountSpec* holder = nullptr;
  for (const MountSpec& m : spec.mounts) {
    if ((path == m.target || IsUnder(path, m.target)) &&
        (!holder || m.target.size() >= holder->target.size())) {
      holder = &m;
    }
  }
  return holder;
}

void ExposeHiddenFiles(const std::vector<std::string>& paths, SandboxSpec* spec) {
  if (!spec->confine || spec->root != "/") return;
  for (const std::string& path : paths) {
    if (path.empty() || path[0] != '/') continue;
    const MountSpec* holder = MountHolding(*spec, path);
    if (holder &&
        (holder->kind == MountSpec::Kind::kTmpfs || holder->kind == MountSpec::Kind::kDev)) {
      // The program the user named, through whatever links its path holds: binds follow none.
      char real[PATH_MAX];
      const bool resolved = realpath(path.c_str(), real) != nullptr;
      spec->mounts.push_back({MountSpec::Kind::kRoBind, resolved ? real : path, path});
    }
  }
}

}  // namespace snare::sandbox
