#include "sandbox/hidden_files.h"

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
      spec->mounts.push_back({MountSpec::Kind::kRoBind, path, path});
    }
  }
}

}  // namespace snare::sandbox
