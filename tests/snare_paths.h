// Locates the snare binary, the guest programs and scratch directories for the integration
// tests. Binaries come from the test's runfiles (Bazel's runfiles library).
#ifndef SNARE_TESTS_SNARE_PATHS_H_
#define SNARE_TESTS_SNARE_PATHS_H_

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace snare::tests {

// Absolute path of a runfile given relative to the workspace root ("cmd/snare"), or a
// message saying what is missing.
std::expected<std::string, std::string> RunfilePath(std::string_view workspace_relative);

// Where runfiles that guests run or read are copied (under /var/tmp, readable by every user:
// a confined guest run as root is nobody, and the runfiles lie under root's home; /tmp is
// private to each sandbox). Removed at exit.
const std::string& StagingRoot();

// A runfile copied under StagingRoot() (executable).
std::expected<std::string, std::string> StagedRunfile(std::string_view workspace_relative);

// //cmd:snare (staged, with the snare-workload beside it); the test must list it in `data`.
std::expected<std::string, std::string> SnareBinary();

// A guest program or script from //tests/guests (e.g. "threads_guest", "files.py"), staged.
std::expected<std::string, std::string> GuestPath(std::string_view name);

// A directory every user may write (sticky), under StagingRoot().
std::string TestTmpDir();

// Creates a fresh, empty directory under TestTmpDir() whose name starts with prefix.
// Returns an empty string (after printing why) on failure.
std::string MakeTempDir(std::string_view prefix);

// argv with runfiles paths of this workspace ("/.../x_test.runfiles/snare/cmd/snare",
// also after "--flag=") rewritten to "bazel-bin/cmd/snare", for reproducer command lines
// that still work after the test's sandbox is gone; $TEST_TMPDIR becomes /tmp.
std::vector<std::string> ForDisplay(std::vector<std::string> argv);

// The `snare run` flags of a test platform: "systrap", "inproc", or "systrap-patch"
// (systrap with --patch).
std::vector<std::string> PlatformFlags(const std::string& platform);

// A test platform as a GoogleTest parameter name ("systrap-patch" -> "systrap_patch").
std::string PlatformTestName(std::string platform);

}  // namespace snare::tests

#endif  // SNARE_TESTS_SNARE_PATHS_H_
