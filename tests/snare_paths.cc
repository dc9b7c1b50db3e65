#include "tests/snare_paths.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "tools/cpp/runfiles/runfiles.h"

namespace snare::tests {
namespace {

namespace fs = std::filesystem;
using bazel::tools::cpp::runfiles::Runfiles;

constexpr std::string_view kWorkspace = "snare";

const Runfiles* TestRunfiles(std::string* error) {
  static std::string init_error;
  static const Runfiles* runfiles = Runfiles::CreateForTest(&init_error);
  if (!runfiles) *error = "no runfiles: " + init_error;
  return runfiles;
}

std::expected<std::string, std::string> Find(std::string_view workspace_relative,
                                             std::string_view what, bool executable) {
  std::string error;
  const Runfiles* runfiles = TestRunfiles(&error);
  if (!runfiles) return std::unexpected(std::string(what) + " not found: " + error);
  const std::string path =
      runfiles->Rlocation(std::string(kWorkspace) + "/" + std::string(workspace_relative));
  if (!path.empty() && access(path.c_str(), executable ? X_OK : R_OK) == 0) return path;
  return std::unexpected(std::string(what) + " not found in the runfiles (" +
                         (path.empty() ? std::string("no entry") : path + ": " + strerror(errno)) +
                         "); is it in the test's data?");
}

// A copy of a runfile under StagingRoot(), readable by every user.
std::expected<std::string, std::string> Stage(std::string_view workspace_relative,
                                              std::string_view what, bool executable) {
  auto found = Find(workspace_relative, what, executable);
  if (!found) return found;
  const fs::path staged = fs::path(StagingRoot()) / workspace_relative;
  std::error_code ec;
  if (fs::exists(staged, ec)) return staged.string();
  fs::create_directories(staged.parent_path(), ec);
  for (fs::path p = staged.parent_path(); !ec && p.string().size() > StagingRoot().size();
       p = p.parent_path()) {
    fs::permissions(p, fs::perms(0755), ec);
  }
  fs::copy_file(*found, staged, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::permissions(staged, fs::perms(executable ? 0755 : 0644), ec);
  if (ec) return std::unexpected("cannot stage " + *found + ": " + ec.message());
  return staged.string();
}

}  // namespace

const std::string& StagingRoot() {
  static const std::string root = [] {
    std::string templ = "/var/tmp/snare-tests-XXXXXX";
    if (!mkdtemp(templ.data())) {
      fprintf(stderr, "mkdtemp %s: %s\n", templ.c_str(), strerror(errno));
      return std::string("/var/tmp");
    }
    chmod(templ.c_str(), 0755);
    mkdir((templ + "/tmp").c_str(), 01777);
    chmod((templ + "/tmp").c_str(), 01777);
    static std::string cleanup = templ;
    atexit([] {
      std::error_code ec;
      fs::remove_all(cleanup, ec);
    });
    return templ;
  }();
  return root;
}

std::expected<std::string, std::string> StagedRunfile(std::string_view workspace_relative) {
  return Stage(workspace_relative, workspace_relative, true);
}

std::expected<std::string, std::string> RunfilePath(std::string_view workspace_relative) {
  return Find(workspace_relative, workspace_relative, false);
}

std::expected<std::string, std::string> SnareBinary() {
  // snare bench runs the snare-workload beside it (in snare's own runfiles).
  auto workload = Stage("cmd/snare-workload", "//cmd:snare-workload (snare's data)", true);
  if (!workload) return workload;
  return Stage("cmd/snare", "the snare binary (//cmd:snare)", true);
}

std::expected<std::string, std::string> GuestPath(std::string_view name) {
  std::string rel = "tests/guests/" + std::string(name);
  bool script = name.ends_with(".py");
  return Stage(rel, "guest //tests/guests:" + std::string(name), !script);
}

std::string TestTmpDir() { return StagingRoot() + "/tmp"; }

std::string MakeTempDir(std::string_view prefix) {
  std::string templ = TestTmpDir() + "/" + std::string(prefix) + "XXXXXX";
  if (!mkdtemp(templ.data())) {
    fprintf(stderr, "mkdtemp %s: %s\n", templ.c_str(), strerror(errno));
    return "";
  }
  chmod(templ.c_str(), 0755);
  return templ;
}

std::vector<std::string> ForDisplay(std::vector<std::string> argv) {
  const std::string needle = ".runfiles/" + std::string(kWorkspace) + "/";
  for (std::string& arg : argv) {
    for (const std::string& from : {TestTmpDir(), StagingRoot()}) {
      const std::string to = from == TestTmpDir() ? "/tmp" : "bazel-bin";
      for (size_t pos; (pos = arg.find(from)) != std::string::npos;)
        arg.replace(pos, from.size(), to);
    }
    size_t pos = arg.find(needle);
    if (pos == std::string::npos) continue;
    size_t eq = arg.rfind('=', pos);
    size_t start = eq == std::string::npos ? 0 : eq + 1;
    arg.replace(start, pos + needle.size() - start, "bazel-bin/");
  }
  return argv;
}

std::vector<std::string> PlatformFlags(const std::string& platform) {
  // Every site at its first trap: the attacks meet patched sites wherever they could.
  if (platform == "systrap-patch") return {"--platform=systrap", "--patch", "--patch-after=1"};
  // systrap patches by default: the plain platform is the signal path.
  if (platform == "systrap") return {"--platform=systrap", "--no-patch"};
  return {"--platform=" + platform};
}

std::string PlatformTestName(std::string platform) {
  for (char& c : platform) c = c == '-' ? '_' : c;
  return platform;
}

}  // namespace snare::tests
