#include "bench/cpython_outcomes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace snare::bench {
namespace {

constexpr const char* kPython = "/usr/bin/python3.11";

std::string WriteXml(const std::string& text) {
  std::string path = ::testing::TempDir() + "/junit-" + std::to_string(getpid()) + ".xml";
  std::ofstream(path) << text;
  return path;
}

TEST(CpythonOutcomesTest, ReadsEachOutcomeOfRegrtestsJunitXml) {
  if (access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is not installed";
  const std::string path = WriteXml(R"(<testsuites><testsuite>
<testcase name="test.test_os.A.test_ok" status="run" result="completed" time="0.1" />
<testcase name="test.test_os.A.test_xfail" status="run" result="completed"><output type="E" message="m">tb</output></testcase>
<testcase name="test.test_os.A.test_fail" status="run" result="completed"><failure type="AssertionError" message="m">tb</failure></testcase>
<testcase name="test.test_os.A.test_error" status="run" result="completed"><error type="OSError" message="m">tb</error></testcase>
<testcase name="test.test_os.A.test_skip" status="run" result="completed"><skipped>not here</skipped></testcase>
<testcase />
</testsuite></testsuites>)");
  auto outcomes = ReadJunitOutcomes(kPython, path);
  ASSERT_TRUE(outcomes) << outcomes.error();
  EXPECT_EQ(outcomes->passed,
            (std::set<std::string>{"test.test_os.A.test_ok", "test.test_os.A.test_xfail"}));
  EXPECT_EQ(outcomes->failed, (std::set<std::string>{"(unnamed 1)", "test.test_os.A.test_error",
                                                     "test.test_os.A.test_fail"}));
  EXPECT_EQ(outcomes->skipped, (std::set<std::string>{"test.test_os.A.test_skip"}));
}

TEST(CpythonOutcomesTest, AFileThatIsNotXmlIsAnError) {
  if (access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is not installed";
  auto outcomes = ReadJunitOutcomes(kPython, WriteXml("Traceback (most recent call last):"));
  ASSERT_FALSE(outcomes);
  EXPECT_NE(outcomes.error().find("cannot read the junit XML"), std::string::npos);
}

TEST(CpythonOutcomesTest, LostTestsAreThoseOnlyTheNativeRunPassed) {
  TestOutcomes native, other;
  native.passed = {"a", "b", "c", "d"};
  other.passed = {"a", "d", "e"};
  other.failed = {"b"};
  other.skipped = {"c"};
  EXPECT_EQ(LostTests(native, other), (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(LostTests(other, other).empty());
}

}  // namespace
}  // namespace snare::bench
