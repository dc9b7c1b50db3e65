#include "kernel/lab/lab_paths.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace snare::lab {
namespace {

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string DefaultCacheDir() {
  if (const char* xdg = getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/snare/lab";
  const char* home = getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/snare/lab";
}

std::expected<std::string, std::string> FindKernelDir(const std::string& flag) {
  std::vector<std::string> candidates;
  if (!flag.empty()) candidates.push_back(flag);
  if (const char* env = getenv("SNARE_KERNEL_DIR"); env && *env) candidates.push_back(env);
  if (const char* ws = getenv("BUILD_WORKSPACE_DIRECTORY"); ws && *ws) {
    candidates.push_back(std::string(ws) + "/kernel");
  }
  candidates.push_back("kernel");
  for (const auto& c : candidates) {
    if (!IsDir(c + "/patches") || !IsDir(c + "/config")) continue;
    // Absolute: the build runs in the unpacked source tree.
    char* real = realpath(c.c_str(), nullptr);
    std::string path = real ? real : c;
    free(real);
    return path;
  }
  return std::unexpected(std::string(
      "cannot find the kernel lab's patches and config: run from the snare checkout, or pass "
      "--kernel-dir=PATH/kernel (or set SNARE_KERNEL_DIR)"));
}

std::vector<std::string> KnownVariants(const std::string& kernel_dir) {
  std::vector<std::string> variants = {"stock"};
  if (DIR* d = opendir((kernel_dir + "/patches/6.12").c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name[0] != '.' && IsDir(kernel_dir + "/patches/6.12/" + name)) variants.push_back(name);
    }
    closedir(d);
  }
  std::sort(variants.begin() + 1, variants.end());
  return variants;
}

}  // namespace snare::lab
