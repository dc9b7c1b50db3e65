// The test harness itself: exit statuses as a shell reports them, captured streams, stdin,
// the working directory, extra environment, timeouts and start failures. Needs no snare.
#include "tests/guest_runner.h"

#include <chrono>
#include <string>

#include "gtest/gtest.h"

namespace snare_test {
namespace {

TEST(GuestRunnerTest, CapturesStdoutStderrAndStatus) {
  RunResult r = RunCommand({"sh", "-c", "echo out; echo err >&2; exit 5"});
  EXPECT_EQ(r.status, 5);
  EXPECT_EQ(r.stdout_data, "out\n");
  EXPECT_EQ(r.stderr_data, "err\n");
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(r.start_error.empty());
}

TEST(GuestRunnerTest, DeathBySignalIs128PlusN) {
  EXPECT_EQ(RunCommand({"sh", "-c", "kill -TERM $$"}).status, 143);
  EXPECT_EQ(RunCommand({"sh", "-c", "kill -KILL $$"}).status, 137);
}

TEST(GuestRunnerTest, FeedsStdin) {
  std::string big(1 << 20, 'x');
  RunOptions options;
  options.stdin_data = big;
  RunResult r = RunCommand({"wc", "-c"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, std::to_string(big.size()) + "\n");
}

TEST(GuestRunnerTest, StdinUnreadIsHarmless) {
  RunOptions options;
  options.stdin_data = std::string(1 << 20, 'y');
  EXPECT_EQ(RunCommand({"/bin/true"}, options).status, 0);
}

TEST(GuestRunnerTest, DefaultStdinIsDevNull) { EXPECT_EQ(RunCommand({"cat"}).stdout_data, ""); }

TEST(GuestRunnerTest, CwdAndEnvironment) {
  RunOptions options;
  options.cwd = "/usr";
  options.extra_env = {"GUEST_RUNNER_TEST=42", "HOME=/nowhere"};
  RunResult r = RunCommand({"sh", "-c", "pwd; echo $GUEST_RUNNER_TEST $HOME"}, options);
  EXPECT_EQ(r.stdout_data, "/usr\n42 /nowhere\n");
}

TEST(GuestRunnerTest, SignalsAreDefaultAndUnblocked) {
  // SIGPIPE back at its default: the writer of a closed pipe dies (141) instead of failing.
  RunResult r = RunCommand({"sh", "-c", "yes | head -1"});
  EXPECT_EQ(r.stdout_data, "y\n");
  EXPECT_EQ(r.stderr_data, "") << "a writer saw EPIPE instead of dying of SIGPIPE";
  EXPECT_EQ(RunCommand({"sh", "-c", "grep -E '^(SigBlk|SigIgn)' /proc/self/status"}).stdout_data,
            "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(GuestRunnerTest, OnlyStdioIsInherited) {
  RunResult r = RunCommand({"sh", "-c", "ls /proc/self/fd | sort -n | tr '\\n' ' '"});
  // 0-2 plus the fd ls uses to read the directory.
  EXPECT_EQ(r.stdout_data, "0 1 2 3 ");
}

TEST(GuestRunnerTest, TimeoutKillsTheProcessGroup) {
  RunOptions options;
  options.timeout = std::chrono::seconds(1);
  auto start = std::chrono::steady_clock::now();
  RunResult r = RunCommand({"sh", "-c", "sleep 100 & sleep 100"}, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 137);
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  EXPECT_FALSE(r.output_held_open) << "the background sleep survived the group kill";
}

TEST(GuestRunnerTest, LeftoverProcessHoldingOutputIsReported) {
  RunOptions options;
  options.drain_after_exit = std::chrono::milliseconds(300);
  RunResult r = RunCommand({"sh", "-c", "sleep 3 & echo started"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "started\n");
  EXPECT_TRUE(r.output_held_open);
}

TEST(GuestRunnerTest, MissingProgramIsAStartError) {
  RunResult r = RunCommand({"guest-runner-no-such-program"});
  EXPECT_EQ(r.status, -1);
  EXPECT_NE(r.start_error.find("No such file or directory"), std::string::npos) << r.start_error;
}

TEST(GuestRunnerTest, ShellQuote) {
  EXPECT_EQ(ShellQuote({"a", "b c", "it's", "", "--x=1"}), "a 'b c' 'it'\\''s' '' --x=1");
}

}  // namespace
}  // namespace snare_test
