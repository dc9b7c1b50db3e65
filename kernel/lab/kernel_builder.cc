#include "kernel/lab/kernel_builder.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "kernel/lab/build_steps.h"
#include "kernel/lab/command_stream.h"
#include "kernel/lab/lab_paths.h"

namespace snare::lab {
namespace {

std::vector<std::string> PatchFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      // 0000-cover-letter.patch (git format-patch --cover-letter) changes nothing.
      if (name.size() > 6 && name.substr(name.size() - 6) == ".patch" &&
          name.rfind("0000-", 0) != 0)
        files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Stage(const std::string& variant, const std::string& stage, const std::string& what) {
  return variant + " kernel, stage " + stage + ": " + what;
}

// The options of the fragment that must read "=y" in the final .config.
std::vector<std::string> MissingOptions(const std::string& fragment, const std::string& config) {
  std::vector<std::string> missing;
  std::istringstream in(fragment);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("CONFIG_", 0) != 0) continue;
    if (line.find("=y") == std::string::npos) continue;
    if (config.find("\n" + line + "\n") == std::string::npos) missing.push_back(line);
  }
  return missing;
}

}  // namespace

std::string PatchDiff(const std::string& patch) {
  size_t start = patch.rfind("diff --git ", 0) == 0 ? 0 : patch.find("\ndiff --git ");
  size_t end = patch.rfind("\n-- \n");
  if (start == std::string::npos) {
    start = 0;
    end = patch.size();
  } else {
    if (start > 0) ++start;
    end = end == std::string::npos || end < start ? patch.size() : end + 1;
  }
  // "index OLD..NEW" names blobs; patch(1) does not read it.
  std::string diff;
  std::istringstream in(patch.substr(start, end - start));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("index ", 0) != 0) diff += line + "\n";
  }
  return diff;
}

std::string ConfiguredName(const std::string& variant, const std::string& config) {
  return config == kLabConfig ? variant : variant + "+" + config;
}

std::vector<std::string> KnownConfigs(const std::string& kernel_dir) {
  std::vector<std::string> configs = {kLabConfig};
  if (DIR* d = opendir((kernel_dir + "/config").c_str())) {
    while (dirent* e = readdir(d)) {
      std::string file = e->d_name;
      const std::string suffix = ".config";
      if (file.size() <= suffix.size() ||
          file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      std::string name = file.substr(0, file.size() - suffix.size());
      if (name != kLabConfig && name[0] != '.') configs.push_back(name);
    }
    closedir(d);
  }
  std::sort(configs.begin() + 1, configs.end());
  return configs;
}

std::expected<KernelBuild, std::string> BuildKernel(
    const std::string& kernel_dir, const std::string& cache_dir, const std::string& variant,
    const std::string& config, const std::function<void(const std::string&)>& progress) {
  const std::string name = ConfiguredName(variant, config);
  auto say = [&](const std::string& s) {
    if (progress) progress(name + ": " + s);
  };
  if (!Exists(kSourceTarball)) {
    return std::unexpected(Stage(variant, "source",
                                 std::string(kSourceTarball) +
                                     " is missing: install Debian's "
                                     "linux-source-6.12 (tools/setup.sh)"));
  }
  const std::string fragment_path = kernel_dir + "/config/lab.config";
  const std::string fragment = ReadFile(fragment_path);
  if (fragment.empty()) {
    return std::unexpected(Stage(name, "config", fragment_path + " is missing or empty"));
  }
  // Another configuration is one more fragment merged after the lab's.
  std::string extra_path, extra;
  if (config != kLabConfig) {
    extra_path = kernel_dir + "/config/" + config + ".config";
    extra = ReadFile(extra_path);
    if (extra.empty()) {
      return std::unexpected(Stage(name, "config", extra_path + " is missing or empty"));
    }
  }
  std::vector<std::string> patches;
  if (variant != "stock") {
    std::string dir = kernel_dir + "/patches/6.12/" + variant;
    patches = PatchFiles(dir);
    if (patches.empty()) {
      return std::unexpected(Stage(name, "patch", "no *.patch files in " + dir));
    }
  }
  CacheKey hash;
  hash.Add(SourceVersion()).Add(variant).Add(fragment);
  for (const auto& p : patches) hash.Add(p.substr(p.rfind('/') + 1)).Add(PatchDiff(ReadFile(p)));
  // The lab configuration's keys predate other configurations: they stay as they were.
  if (config != kLabConfig) hash.Add("config=" + config).Add(extra);
  const std::string key = hash.Hex();

  KernelBuild build;
  build.variant = variant;
  build.config = config;
  build.key = key;
  const std::string entry = cache_dir + "/6.12/" + name + "-" + key;
  build.bzimage = entry + "/bzImage";
  if (Exists(build.bzimage)) {
    build.reused = true;
    say("reusing " + build.bzimage);
    return build;
  }
  const std::string tmp =
      cache_dir + "/6.12/.build-" + name + "-" + key + "-" + std::to_string(getpid());
  const std::string src = tmp + "/src";
  if (!MakeDirs(src)) {
    return std::unexpected(Stage(name, "cache", "cannot create " + src + ": " + strerror(errno)));
  }
  auto fail = [&](const std::string& stage, const std::string& what) {
    RemoveTree(tmp);
    return std::unexpected(Stage(name, stage, what));
  };
  say("unpacking " + std::string(kSourceTarball));
  StreamResult r = UnpackSource(src, {});
  if (r.status != 0) return fail("unpack", "tar failed:\n" + r.tail);
  for (const auto& p : patches) {
    say("applying " + p.substr(p.rfind('/') + 1));
    r = RunStreaming({"patch", "-p1", "--forward", "--batch", "-i", p}, src, 120, nullptr);
    if (r.status != 0) return fail("patch", p + " does not apply to linux-source-6.12:\n" + r.tail);
  }
  const std::vector<std::string> make = MakeCommand(cache_dir, src);
  auto with = [&](std::vector<std::string> argv, std::initializer_list<std::string> more) {
    argv.insert(argv.end(), more);
    return argv;
  };
  say("configuring (tinyconfig + " + fragment_path + (extra.empty() ? "" : " + " + extra_path) +
      ")");
  r = RunStreaming(with(make, {"tinyconfig"}), src, 300, nullptr);
  if (r.status == 0) {
    std::vector<std::string> merge = {"scripts/kconfig/merge_config.sh", "-m", ".config",
                                      fragment_path};
    if (!extra.empty()) merge.push_back(extra_path);
    r = RunStreaming(merge, src, 300, nullptr);
  }
  if (r.status == 0) r = RunStreaming(with(make, {"olddefconfig"}), src, 300, nullptr);
  if (r.status != 0) return fail("config", "configuration failed:\n" + r.tail);
  std::vector<std::string> missing =
      MissingOptions(fragment + "\n" + extra, "\n" + ReadFile(src + "/.config"));
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += " " + m;
    return fail("config", "options of the fragment not set after olddefconfig:" + list);
  }
  long jobs = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  say("make -j" + std::to_string(jobs) + " bzImage");
  int lines = 0;
  // A parallel make's last lines are other jobs finishing: keep the compiler's errors.
  std::string errors;
  int error_lines = 0;
  r = RunStreaming(with(make, {"-j" + std::to_string(jobs), "bzImage"}), src, 3600,
                   [&](const std::string& l) {
                     if (++lines % 25 == 0) say("make: " + l.substr(0, 60));
                     if (l.find("error:") != std::string::npos && ++error_lines <= 10) {
                       errors += l + "\n";
                     }
                   });
  if (r.status != 0) {
    return fail("build",
                "make bzImage failed:\n" + errors + (errors.empty() ? "" : "...\n") + r.tail);
  }
  const std::string staged = tmp + "/entry";
  if (!MakeDirs(staged) ||
      RunStreaming({"cp", src + "/arch/x86/boot/bzImage", src + "/.config", staged}, "", 60,
                   nullptr)
              .status != 0) {
    return fail("cache", "cannot copy the bzImage into " + staged);
  }
  if (!MakeDirs(cache_dir + "/6.12") || rename(staged.c_str(), entry.c_str()) != 0) {
    return fail("cache", "cannot move the build into " + entry + ": " + strerror(errno));
  }
  RemoveTree(tmp);
  say("built " + build.bzimage);
  return build;
}

}  // namespace snare::lab
