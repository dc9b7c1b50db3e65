// Runs the syscall behaviour suite (//tests/syscalls:syscall_behaviour, one GoogleTest
// binary built once) natively and under `snare run --platform=P` for each platform, and
// requires the same outcome: exit status 0 and "[  PASSED  ] N tests." with N the number of
// tests the binary lists (less any excluded below).
#include <chrono>
#include <cstdio>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

constexpr char kSuite[] = "tests/syscalls/syscall_behaviour";

struct Exclusion {
  const char* test;    // "Suite.Name"
  const char* reason;  // the snare bug that makes it fail
};

// Tests that pass natively and fail under snare (snare bugs), excluded under snare only
// until fixed; empty while snare passes them all. A listed test that no longer exists
// fails the runner.
const std::vector<Exclusion> kSnareExclusions = {};

// How the suite is run. It is a GoogleTest binary too: Bazel's settings for this test must
// not reach it (--test_filter's TESTBRIDGE_TEST_ONLY, the XML report, the premature-exit
// marker file, which it would delete under this test).
util::SubprocessOptions SuiteOptions() {
  util::SubprocessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.extra_env = {"GTEST_FILTER=*", "GTEST_OUTPUT=", "XML_OUTPUT_FILE=",
                       "TEST_PREMATURE_EXIT_FILE=", "TESTBRIDGE_TEST_ONLY="};
  return options;
}

// Names ("Suite.Name") of the tests the binary lists with --gtest_list_tests.
std::vector<std::string> ListTests(const std::string& binary, std::string* error) {
  util::SubprocessResult r = util::RunSubprocess({binary, "--gtest_list_tests"}, SuiteOptions());
  if (r.status != 0) {
    *error = "--gtest_list_tests failed:\n" + r.Describe();
    return {};
  }
  std::vector<std::string> names;
  std::string suite;
  size_t start = 0;
  const std::string& out = r.stdout_data;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string line = out.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.starts_with("Running main()")) continue;
    if (line.starts_with("  ")) {
      std::string name = line.substr(2);
      if (size_t hash = name.find("  #"); hash != std::string::npos) name.resize(hash);
      names.push_back(suite + name);
    } else {
      suite = line;  // "Suite."
    }
  }
  return names;
}

// The N of gtest's final "[  PASSED  ] N test(s)." line, or -1 when there is none.
int PassedCount(const std::string& output) {
  static const std::regex kPassed(R"(\[  PASSED  \] (\d+) tests?\.)");
  std::smatch m;
  if (!std::regex_search(output, m, kPassed)) return -1;
  return std::stoi(m[1].str());
}

class SyscallBehaviourTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SyscallBehaviourTest, AllTestsPass) {
  const std::string& mode = GetParam();
  auto suite = StagedRunfile(kSuite);
  ASSERT_TRUE(suite.has_value()) << suite.error();

  std::string list_error;
  std::vector<std::string> listed = ListTests(*suite, &list_error);
  ASSERT_FALSE(listed.empty()) << "no tests listed. " << list_error;
  const std::set<std::string> names(listed.begin(), listed.end());

  std::vector<std::string> argv;
  int expected = static_cast<int>(listed.size());
  if (mode == "native") {
    argv = {*suite, "--gtest_brief=1"};
  } else {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    argv = {*snare, "run", "--platform=" + mode, "--", *suite, "--gtest_brief=1"};
    std::string filter;
    for (const Exclusion& e : kSnareExclusions) {
      ASSERT_TRUE(names.count(e.test)) << "excluded test " << e.test << " does not exist";
      filter += (filter.empty() ? "--gtest_filter=-" : ":") + std::string(e.test);
      --expected;
      printf("excluded under snare: %s (%s)\n", e.test, e.reason);
    }
    if (!filter.empty()) argv.push_back(filter);
  }

  util::SubprocessOptions options = SuiteOptions();
  // The sandbox shows the host's TEST_TMPDIR read-only; the guest's scratch space is its /tmp.
  if (mode != "native") options.extra_env.push_back("TEST_TMPDIR=/tmp");
  util::SubprocessResult r = util::RunSubprocess(argv, options);
  const std::string output = r.stdout_data + r.stderr_data;
  SCOPED_TRACE("reproduce: " + util::ShellQuote(ForDisplay(argv)));
  const int passed = PassedCount(output);
  // One expectation, so that the full output is printed once.
  EXPECT_TRUE(!r.timed_out && r.status == 0 && passed == expected)
      << "expected exit status 0 and \"[  PASSED  ] " << expected << " tests.\" (" << listed.size()
      << " listed"
      << (mode == "native"
              ? ""
              : ", less " + std::to_string(listed.size() - expected) + " excluded under snare")
      << "); got status " << r.status << (r.timed_out ? " (TIMED OUT)" : "") << " and "
      << (passed < 0 ? "no PASSED line" : std::to_string(passed) + " passed")
      << (r.start_error.empty() ? "" : "; start error: " + r.start_error) << "\n--- stdout ---\n"
      << r.stdout_data << "\n--- stderr ---\n"
      << r.stderr_data << "\n---";
}

INSTANTIATE_TEST_SUITE_P(Modes, SyscallBehaviourTest,
                         ::testing::Values("native", "systrap", "inproc"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace snare::tests
