#include "sandbox/host_view.h"

#include <dirent.h>
#include <fcntl.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "util/host_path.h"

namespace snare::sandbox {
namespace {

// The profile mounts its own there.
constexpr std::string_view kProfileDirs[] = {"dev", "proc", "tmp", "run"};
constexpr std::string_view kSystemDirs[] = {"bin",    "sbin", "lib", "lib32", "lib64",
                                            "libx32", "usr",  "etc", "sys"};

std::string TopLevelOf(const std::string& path) {
  const size_t end = path.find('/', 1);
  return path.substr(1, end == std::string::npos ? std::string::npos : end - 1);
}

bool Hidden(const std::string& path) {
  if (path.size() < 2 || path[0] != '/') return false;
  const std::string top = TopLevelOf(path);
  return !IsSystemDirectory(top) &&
         std::find(std::begin(kProfileDirs), std::end(kProfileDirs), top) == std::end(kProfileDirs);
}

bool IsUnder(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

bool HasDotComponent(const std::string& path) {
  for (const char* dots : {"/./", "/../"}) {
    if (path.find(dots) != std::string::npos) return true;
  }
  return path.ends_with("/.") || path.ends_with("/..");
}

}  // namespace

bool IsSystemDirectory(const std::string& name) {
  return std::find(std::begin(kSystemDirs), std::end(kSystemDirs), name) != std::end(kSystemDirs);
}

HostView CurrentHostView() {
  HostView view;
  if (DIR* root = opendir("/")) {
    while (const dirent* e = readdir(root)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (e->d_type == DT_DIR) view.top_level.push_back(name);
    }
    closedir(root);
  }
  std::sort(view.top_level.begin(), view.top_level.end());
  if (const char* path = getenv("PATH")) view.path_env = path;
  if (const char* home = getenv("HOME")) view.home = home;
  while (view.home.size() > 1 && view.home.back() == '/') view.home.pop_back();
  return view;
}

std::vector<std::string> InstallRoots(const std::string& dir, const std::string& home) {
  if (!Hidden(dir)) return {};
  const size_t slash = dir.rfind('/');
  const std::string base = dir.substr(slash + 1);
  const std::string parent = slash == 0 ? "/" : dir.substr(0, slash);
  if ((base == "bin" || base == "sbin" || base == "shims") && parent != "/" && parent != home) {
    if (!home.empty() && parent == home + "/.local") return {dir, parent + "/lib"};
    return {parent};
  }
  return {dir};
}

std::vector<MountSpec> HostViewMounts(const HostView& view) {
  using Kind = MountSpec::Kind;
  std::vector<MountSpec> mounts;
  for (const std::string& name : view.top_level) {
    if (!Hidden("/" + name)) continue;
    mounts.push_back({Kind::kEmptyDir, "", "/" + name});
    if (name == "var") {
      mounts.push_back({Kind::kTmpfs, "", "/var/tmp"});
      mounts.push_back({Kind::kSymlink, "../run", "/var/run"});
      mounts.push_back({Kind::kSymlink, "../run/lock", "/var/lock"});
    }
  }
  const std::string& home = view.home;
  if (home.size() > 1 && home[0] == '/' && Hidden(home)) {
    mounts.push_back({Kind::kTmpfs, "", home});
    for (const char* file : {"/.gitconfig", "/.config/git"}) {
      if (util::ExistsWithoutSymlinks(home + file, 0))
        mounts.push_back({Kind::kRoBind, home + file, home + file});
    }
  }
  std::vector<std::string> roots;
  for (size_t start = 0; start <= view.path_env.size();) {
    size_t end = view.path_env.find(':', start);
    if (end == std::string::npos) end = view.path_env.size();
    std::string dir = view.path_env.substr(start, end - start);
    start = end + 1;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.empty() || dir[0] != '/' || HasDotComponent(dir)) continue;
    for (const std::string& root : InstallRoots(dir, home)) {
      if (util::ExistsWithoutSymlinks(root, O_DIRECTORY)) roots.push_back(root);
      // rustup's proxies in ~/.cargo/bin run the toolchains in ~/.rustup.
      if (!home.empty() && root == home + "/.cargo" &&
          util::ExistsWithoutSymlinks(home + "/.rustup", O_DIRECTORY)) {
        roots.push_back(home + "/.rustup");
      }
    }
  }
  // Parents before what they hold, and nothing twice.
  std::sort(roots.begin(), roots.end());
  std::vector<std::string> bound;
  for (const std::string& root : roots) {
    if (std::any_of(bound.begin(), bound.end(), [&](const auto& b) { return IsUnder(root, b); })) {
      continue;
    }
    mounts.push_back({Kind::kRoBind, root, root});
    bound.push_back(root);
    // A registry token kept beside the tools is no tool: covered by an empty file.
    for (const char* secret : {"/credentials", "/credentials.toml"}) {
      if (!home.empty() && root == home + "/.cargo" &&
          util::ExistsWithoutSymlinks(root + secret, 0)) {
        mounts.push_back({Kind::kRoBind, "/dev/null", root + secret});
      }
    }
  }
  return mounts;
}

}  // namespace snare::sandbox
