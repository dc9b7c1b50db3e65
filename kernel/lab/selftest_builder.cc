#include "kernel/lab/selftest_builder.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "kernel/lab/build_steps.h"
#include "kernel/lab/command_stream.h"
#include "kernel/lab/lab_paths.h"
#include "util/atomic_file.h"

namespace snare::lab {
namespace {

// Folder under tools/testing/selftests and the program its Makefile builds. 6.12 has no
// generic selftests/signal folder (only arm64's and powerpc's): on x86 the signal-delivery
// tests are x86's. posix_timers joins them because its timers queue preallocated sigqueues,
// the path the reserve patch's free changes.
struct Source {
  const char* dir;
  const char* program;
  bool timing = false;
};
constexpr Source kSources[] = {
    {"seccomp", "seccomp_bpf"},
    {"seccomp", "seccomp_benchmark", /*timing=*/true},
    {"sigaltstack", "sas"},
    {"x86", "sigreturn_64"},
    {"x86", "single_step_syscall_64"},
    {"x86", "syscall_nt_64"},
    {"x86", "sigaltstack_64"},
    {"x86", "fsgsbase_64"},
    {"timers", "posix_timers"},
};

// Top-level folders the headers and these Makefiles never read.
const std::vector<std::string> kUnneeded = {"Documentation", "drivers",  "sound",   "fs",
                                            "net",           "firmware", "samples", "rust"};

// kselftest's per-folder timeout: "timeout=N" in its settings file, else 45 s.
int FolderTimeout(const std::string& folder) {
  std::istringstream in(ReadFile(folder + "/settings"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("timeout=", 0) == 0) {
      int t = atoi(line.c_str() + 8);
      if (t > 0) return t;
    }
  }
  return 45;
}

std::string Failure(const std::string& stage, const std::string& what) {
  return "selftests, stage " + stage + ": " + what;
}

}  // namespace

std::vector<std::string> LabSelftestNames() {
  std::vector<std::string> names;
  for (const Source& s : kSources) names.push_back(std::string(s.dir) + "/" + s.program);
  return names;
}

bool IsTimingSelftest(const std::string& name) {
  for (const Source& s : kSources) {
    if (name == std::string(s.dir) + "/" + s.program) return s.timing;
  }
  return false;
}

std::expected<SelftestBuild, std::string> BuildSelftests(
    const std::string& cache_dir, const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& s) {
    if (progress) progress("selftests: " + s);
  };
  if (!Exists(kSourceTarball)) {
    return std::unexpected(Failure("source", std::string(kSourceTarball) +
                                                 " is missing: install Debian's "
                                                 "linux-source-6.12 (tools/setup.sh)"));
  }
  CacheKey hash;
  hash.Add(SourceVersion()).Add("static selftests v1");
  for (const std::string& name : LabSelftestNames()) hash.Add(name);
  SelftestBuild build;
  build.key = hash.Hex();
  build.dir = cache_dir + "/6.12/selftests-" + build.key;
  const std::string manifest = build.dir + "/timeouts";
  auto fill = [&]() {
    std::istringstream in(ReadFile(manifest));
    std::string name;
    int timeout = 0;
    while (in >> name >> timeout) {
      build.tests.push_back({name, build.dir + "/" + name, timeout, IsTimingSelftest(name)});
    }
  };
  if (Exists(manifest)) {
    build.reused = true;
    fill();
    say("reusing " + build.dir);
    return build;
  }
  const std::string tmp =
      cache_dir + "/6.12/.build-selftests-" + build.key + "-" + std::to_string(getpid());
  const std::string src = tmp + "/src";
  const std::string staged = tmp + "/entry";
  if (!MakeDirs(src) || !MakeDirs(staged)) {
    return std::unexpected(Failure("cache", "cannot create " + tmp + ": " + strerror(errno)));
  }
  auto fail = [&](const std::string& stage, const std::string& what) {
    RemoveTree(tmp);
    return std::unexpected(Failure(stage, what));
  };
  say("unpacking " + std::string(kSourceTarball));
  StreamResult r = UnpackSource(src, kUnneeded);
  if (r.status != 0) return fail("unpack", "tar failed:\n" + r.tail);
  say("make headers");
  std::vector<std::string> make = MakeCommand(cache_dir, src);
  std::vector<std::string> headers = make;
  headers.push_back("headers");
  r = RunStreaming(headers, src, 600, nullptr);
  if (r.status != 0) return fail("headers", "make headers failed:\n" + r.tail);
  std::string timeouts;
  for (const Source& s : kSources) {
    const std::string name = std::string(s.dir) + "/" + s.program;
    const std::string folder = src + "/tools/testing/selftests/" + s.dir;
    const std::string out = staged + "/" + s.dir;
    if (!MakeDirs(out)) return fail("cache", "cannot create " + out + ": " + strerror(errno));
    say("make " + name);
    // CC carries -static: the folders' Makefiles append their own CFLAGS and libraries.
    r = RunStreaming(
        {"make", "-C", folder, "CC=gcc -static", "OUTPUT=" + out, out + "/" + s.program}, "", 600,
        nullptr);
    if (r.status != 0 || !Exists(out + "/" + s.program)) {
      return fail("build", "make " + name + " failed:\n" + r.tail);
    }
    timeouts += name + " " + std::to_string(FolderTimeout(folder)) + "\n";
  }
  if (auto written = util::WriteFileAtomically(staged + "/timeouts", timeouts); !written) {
    return fail("cache", written.error());
  }
  if (!MakeDirs(cache_dir + "/6.12") || rename(staged.c_str(), build.dir.c_str()) != 0) {
    return fail("cache", "cannot move the build into " + build.dir + ": " + strerror(errno));
  }
  RemoveTree(tmp);
  fill();
  say("built " + build.dir);
  return build;
}

}  // namespace snare::lab
