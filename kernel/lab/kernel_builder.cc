#include "kernel/lab/kernel_builder.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "kernel/lab/command_stream.h"
#include "kernel/lab/lab_paths.h"
#include "util/subprocess.h"

namespace snare::lab {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

uint64_t Fnv1a(uint64_t h, const std::string& data) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::vector<std::string> PatchFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 6 && name.substr(name.size() - 6) == ".patch")
        files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string SourceVersion() {
  std::string version;
  util::SubprocessResult dpkg =
      util::RunSubprocess({"dpkg-query", "-W", "-f=${Version}", "linux-source-6.12"});
  if (dpkg.status == 0) version = dpkg.stdout_data;
  if (version.empty()) {
    struct stat st;
    if (stat(kSourceTarball, &st) == 0) version = "size-" + std::to_string(st.st_size);
  }
  return version;
}

std::string Stage(const std::string& variant, const std::string& stage, const std::string& what) {
  return variant + " kernel, stage " + stage + ": " + what;
}

bool MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      std::string part = path.substr(0, i);
      if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
  }
  return true;
}

void RemoveTree(const std::string& path) {
  RunStreaming({"rm", "-rf", "--one-file-system", path}, "", 600, nullptr);
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

std::expected<KernelBuild, std::string> BuildKernel(
    const std::string& kernel_dir, const std::string& cache_dir, const std::string& variant,
    const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& s) {
    if (progress) progress(variant + ": " + s);
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
    return std::unexpected(Stage(variant, "config", fragment_path + " is missing or empty"));
  }
  std::vector<std::string> patches;
  if (variant != "stock") {
    std::string dir = kernel_dir + "/patches/6.12/" + variant;
    patches = PatchFiles(dir);
    if (patches.empty()) {
      return std::unexpected(Stage(variant, "patch", "no *.patch files in " + dir));
    }
  }
  uint64_t h = 0xcbf29ce484222325ull;
  h = Fnv1a(h, SourceVersion());
  h = Fnv1a(h, variant);
  h = Fnv1a(h, fragment);
  for (const auto& p : patches) h = Fnv1a(Fnv1a(h, p.substr(p.rfind('/') + 1)), ReadFile(p));
  char key[32];
  snprintf(key, sizeof(key), "%016llx", static_cast<unsigned long long>(h));

  KernelBuild build;
  build.variant = variant;
  build.key = key;
  const std::string entry = cache_dir + "/6.12/" + variant + "-" + key;
  build.bzimage = entry + "/bzImage";
  if (Exists(build.bzimage)) {
    build.reused = true;
    say("reusing " + build.bzimage);
    return build;
  }
  const std::string tmp =
      cache_dir + "/6.12/.build-" + variant + "-" + key + "-" + std::to_string(getpid());
  const std::string src = tmp + "/src";
  if (!MakeDirs(src)) {
    return std::unexpected(
        Stage(variant, "cache", "cannot create " + src + ": " + strerror(errno)));
  }
  auto fail = [&](const std::string& stage, const std::string& what) {
    RemoveTree(tmp);
    return std::unexpected(Stage(variant, stage, what));
  };
  say("unpacking " + std::string(kSourceTarball));
  StreamResult r = RunStreaming({"tar", "-xJf", kSourceTarball, "-C", src, "--strip-components=1"},
                                "", 900, nullptr);
  if (r.status != 0) return fail("unpack", "tar failed:\n" + r.tail);
  for (const auto& p : patches) {
    say("applying " + p.substr(p.rfind('/') + 1));
    r = RunStreaming({"patch", "-p1", "--forward", "--batch", "-i", p}, src, 120, nullptr);
    if (r.status != 0) return fail("patch", p + " does not apply to linux-source-6.12:\n" + r.tail);
  }
  say("configuring (tinyconfig + " + fragment_path + ")");
  r = RunStreaming({"make", "tinyconfig"}, src, 300, nullptr);
  if (r.status == 0) {
    r = RunStreaming({"scripts/kconfig/merge_config.sh", "-m", ".config", fragment_path}, src, 300,
                     nullptr);
  }
  if (r.status == 0) r = RunStreaming({"make", "olddefconfig"}, src, 300, nullptr);
  if (r.status != 0) return fail("config", "configuration failed:\n" + r.tail);
  std::vector<std::string> missing = MissingOptions(fragment, "\n" + ReadFile(src + "/.config"));
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
  r = RunStreaming({"make", "-j" + std::to_string(jobs), "bzImage"}, src, 3600,
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
