#include "tests/snare_paths.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace snare_test {
namespace {

constexpr std::string_view kWorkspace = "snare";

std::vector<std::string> RunfilesRoots() {
  std::vector<std::string> roots;
  for (const char* var : {"TEST_SRCDIR", "RUNFILES_DIR"}) {
    const char* value = getenv(var);
    if (value && *value) roots.emplace_back(value);
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) roots.push_back(std::string(self, n) + ".runfiles");
  return roots;
}

std::expected<std::string, std::string> Find(std::string_view workspace_relative,
                                             std::string_view what, bool executable) {
  std::string looked;
  for (const std::string& root : RunfilesRoots()) {
    std::string path = root + "/" + std::string(kWorkspace) + "/" + std::string(workspace_relative);
    if (access(path.c_str(), executable ? X_OK : R_OK) == 0) return path;
    looked += "\n  " + path + " (" + strerror(errno) + ")";
  }
  return std::unexpected(
      std::string(what) + " not found in the runfiles; is it in the test's data?" +
      " Looked at:" + (looked.empty() ? std::string(" (no runfiles root)") : looked));
}

}  // namespace

std::expected<std::string, std::string> RunfilePath(std::string_view workspace_relative) {
  return Find(workspace_relative, workspace_relative, false);
}

std::expected<std::string, std::string> SnareBinary() {
  return Find("sentry/snare", "the snare binary (//sentry:snare)", true);
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

}  // namespace snare_test
