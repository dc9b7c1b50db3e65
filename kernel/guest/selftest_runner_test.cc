#include "kernel/guest/selftest_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace snare::lab {
namespace {

TEST(CountSelftestLineTest, CountsTapAndX86Lines) {
  SelftestCounts c;
  for (const char* line : {"TAP version 13", "1..5", "# Starting 5 tests from 1 test cases.",
                           "#  RUN           global.kcmp ...", "#            OK  global.kcmp",
                           "ok 1 global.kcmp", "ok 2 global.user_notif # SKIP no kcmp",
                           "not ok 3 global.tsync", "not ok 4 global.x # SKIP nothing here",
                           "[RUN]\tSet TF and check a fast syscall", "[OK]\tSurvived with TF set",
                           "[FAIL]\tTF was lost", "[SKIP]\tno 32-bit", "# Totals: pass:1"}) {
    CountSelftestLine(line, &c);
  }
  EXPECT_EQ(c.ok, 2);
  EXPECT_EQ(c.not_ok, 2);
  EXPECT_EQ(c.skip, 3);
  ASSERT_EQ(c.failed.size(), 2u);
  EXPECT_EQ(c.failed[0], "not ok 3 global.tsync");
  EXPECT_EQ(c.failed[1], "[FAIL]?TF was lost");  // the tab: the console gets ASCII only
}

TEST(CountSelftestLineTest, KeepsFewShortPrintableFailures) {
  SelftestCounts c;
  for (int i = 0; i < 50; ++i)
    CountSelftestLine("not ok " + std::to_string(i) + " \xff" + std::string(500, 'x'), &c);
  EXPECT_EQ(c.not_ok, 50);
  EXPECT_LE(c.failed.size(), 12u);
  for (const auto& f : c.failed) {
    EXPECT_LE(f.size(), 160u);
    for (char ch : f) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << f;
  }
}

class RunSelftestsTest : public testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/selftest_runner_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { system(("rm -rf " + dir_).c_str()); }

  void Script(const std::string& name, const std::string& body) {
    std::string path = dir_ + "/" + name;
    mkdir(path.substr(0, path.rfind('/')).c_str(), 0755);
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    chmod(path.c_str(), 0755);
  }

  // Runs RunSelftests with fd 1 captured; returns the SNARE-LAB-SELFTEST objects.
  std::vector<nlohmann::json> Run(const std::string& timeouts, int factor, CheckResult* result) {
    std::ofstream(dir_ + "/timeouts") << timeouts;
    std::string out = dir_ + "/stdout";
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    *result = RunSelftests(dir_, factor);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    std::vector<nlohmann::json> lines;
    std::ifstream in(out);
    for (std::string line; std::getline(in, line);) {
      EXPECT_EQ(line.rfind("SNARE-LAB-SELFTEST ", 0), 0u) << line;
      lines.push_back(nlohmann::json::parse(line.substr(19)));
    }
    return lines;
  }

  std::string dir_;
};

TEST_F(RunSelftestsTest, ReportsExitStatusCountsAndFailures) {
  Script("a/pass", "echo 'ok 1 first'; echo 'ok 2 second # SKIP no kcmp'; exit 0");
  Script("a/skip", "echo 'ok 1 all # SKIP no seccomp'; exit 4");
  Script("b/fail", "echo 'ok 1 fine'; echo 'not ok 2 broken' >&2; exit 1");
  Script("b/crash", "kill -SEGV $$");
  CheckResult result;
  auto lines = Run("a/pass 45\na/skip 45\nb/fail 45\nb/crash 45\nb/missing 45\n", 1, &result);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["name"], "a/pass");
  EXPECT_EQ(lines[0]["exit"], 0);
  EXPECT_EQ(lines[0]["ok"], 1);
  EXPECT_EQ(lines[0]["skip"], 1);
  EXPECT_EQ(lines[1]["exit"], 4);
  EXPECT_EQ(lines[2]["exit"], 1);
  EXPECT_EQ(lines[2]["not_ok"], 1);
  EXPECT_EQ(lines[2]["failed"], nlohmann::json::array({"not ok 2 broken"}));  // stderr counts
  EXPECT_EQ(lines[3]["signal"], SIGSEGV);
  EXPECT_EQ(lines[4]["exit"], 127);  // exec failed
  EXPECT_TRUE(result.pass);
  EXPECT_NE(result.detail.find("5 selftests ran, 3 did not pass"), std::string::npos)
      << result.detail;
}

TEST_F(RunSelftestsTest, KillsAHangingTestAtItsScaledTimeout) {
  Script("hang", "echo 'ok 1 before'; sleep 100");
  CheckResult result;
  auto lines = Run("hang 1\n", 2, &result);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0]["timed_out"].get<bool>());
  EXPECT_EQ(lines[0]["timeout_s"], 2);
  EXPECT_EQ(lines[0]["ok"], 1);
  EXPECT_LT(lines[0]["seconds"].get<double>(), 20);
}

TEST_F(RunSelftestsTest, ATestThatLeavesAChildHoldingItsOutputStillEnds) {
  // The child keeps the pipe open for 100 s; the test itself is done at once. The runner
  // must end with the test, and the child must die with it.
  Script("orphan",
         "echo $$ > " + dir_ + "/pgid; (sleep 100; echo late) & echo 'ok 1 done'; exit 0");
  CheckResult result;
  auto lines = Run("orphan 30\n", 1, &result);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(lines[0]["timed_out"].get<bool>());
  EXPECT_EQ(lines[0]["exit"], 0);
  EXPECT_EQ(lines[0]["ok"], 1);
  EXPECT_LT(lines[0]["seconds"].get<double>(), 10);
  std::ifstream in(dir_ + "/pgid");
  int pgid = 0;
  in >> pgid;
  ASSERT_GT(pgid, 0);
  // Killed, it stays a zombie until whoever inherited it reaps it: wait for that.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = kill(-pgid, 0) != 0;
    if (!gone) usleep(50000);
  }
  EXPECT_TRUE(gone) << "the test's child outlived it";
}

TEST_F(RunSelftestsTest, FailsWithoutAList) {
  CheckResult result = RunSelftests(dir_ + "/nothing", 1);
  EXPECT_FALSE(result.pass);
  EXPECT_NE(result.detail.find("timeouts"), std::string::npos) << result.detail;
}

}  // namespace
}  // namespace snare::lab
