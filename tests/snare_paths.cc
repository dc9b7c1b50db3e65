#include "tests/snare_paths.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "tools/cpp/runfiles/runfiles.h"

namespace snare::tests {
namespace {

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

}  // namespace

std::expected<std::string, std::string> RunfilePath(std::string_view workspace_relative) {
  return Find(workspace_relative, workspace_relative, false);
}

std::expected<std::string, std::string> SnareBinary() {
  return Find("cmd/snare", "the snare binary (//cmd:snare)", true);
}

std::expected<std::string, std::string> GuestPath(std::string_view name) {
  std::string rel = "tests/guests/" + std::string(name);
  bool script = name.ends_with(".py");
  return Find(rel, "guest //tests/guests:" + std::string(name), !script);
}

std::string TestTmpDir() {
  const char* dir = getenv("TEST_TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

std::string MakeTempDir(std::string_view prefix) {
  std::string templ = TestTmpDir() + "/" + std::string(prefix) + "XXXXXX";
  if (!mkdtemp(templ.data())) {
    fprintf(stderr, "mkdtemp %s: %s\n", templ.c_str(), strerror(errno));
    return "";
  }
  return templ;
}

std::vector<std::string> ForDisplay(std::vector<std::string> argv) {
  const std::string needle = ".runfiles/" + std::string(kWorkspace) + "/";
  for (std::string& arg : argv) {
    const std::string tmp = TestTmpDir();
    for (size_t pos; tmp != "/tmp" && (pos = arg.find(tmp)) != std::string::npos;) {
      arg.replace(pos, tmp.size(), "/tmp");
    }
    size_t pos = arg.find(needle);
    if (pos == std::string::npos) continue;
    size_t eq = arg.rfind('=', pos);
    size_t start = eq == std::string::npos ? 0 : eq + 1;
    arg.replace(start, pos + needle.size() - start, "bazel-bin/");
  }
  return argv;
}

}  // namespace snare::tests
