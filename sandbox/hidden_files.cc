#include "sandbox/hidden_files.h"

#include <climits>
#include <cstdlib>
#include <string>

#include "sandbox/host_view.h"
#include "util/host_path.h"

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

namespace {

bool HiddenBySpec(const SandboxSpec& spec, const std::string& path) {
  const MountSpec* holder = MountHolding(spec, path);
  return holder &&
         (holder->kind == MountSpec::Kind::kTmpfs || holder->kind == MountSpec::Kind::kDev ||
          holder->kind == MountSpec::Kind::kEmptyDir);
}

}  // namespace

void ExposeNamedPaths(const std::vector<std::string>& args, SandboxSpec* spec) {
  if (!spec->confine || spec->root != "/") return;
  for (const std::string& arg : args) {
    if (arg.size() < 2 || arg[0] != '/' || arg.find("/..") != std::string::npos) continue;
    if (!HiddenBySpec(*spec, arg)) continue;
    if (!util::ExistsWithoutSymlinks(arg)) continue;
    spec->mounts.push_back({MountSpec::Kind::kRoBind, arg, arg});
  }
}

void ExposeHiddenFiles(const std::vector<std::string>& paths, SandboxSpec* spec) {
  if (!spec->confine || spec->root != "/") return;
  auto hidden = [spec](const std::string& path) { return HiddenBySpec(*spec, path); };
  const char* home_env = getenv("HOME");
  const std::string home = home_env ? home_env : "";
  for (const std::string& path : paths) {
    if (path.empty() || path[0] != '/') continue;
    // The program the user named, through whatever links its path holds (binds follow none):
    // at the path named, and at its real place, where the links lead.
    char real_buf[PATH_MAX];
    const std::string real = realpath(path.c_str(), real_buf) ? real_buf : path;
    if (real != path && hidden(path))
      spec->mounts.push_back({MountSpec::Kind::kRoBind, real, path});
    if (!hidden(real)) continue;
    // Where the host view hid it: its own directory too (its libraries beside it), unless
    // that is the home or a directory of "/" itself. Under a tmpfs: the file alone.
    const std::string dir = real.substr(0, real.rfind('/'));
    std::vector<std::string> roots;
    if (MountHolding(*spec, real)->kind == MountSpec::Kind::kEmptyDir) {
      roots = InstallRoots(dir, home);
    }
    std::erase_if(roots, [&](const std::string& r) {
      return r.rfind('/') == 0 || (!home.empty() && (home == r || home.starts_with(r + "/")));
    });
    if (roots.empty()) {
      spec->mounts.push_back({MountSpec::Kind::kRoBind, real, real});
    }
    for (const std::string& root : roots) {
      spec->mounts.push_back({MountSpec::Kind::kRoBind, root, root});
    }
  }
}

}  // namespace snare::sandbox
