#include "sentry/time_limit.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

pid_t Sleeper() {
  pid_t pid = fork();
  if (pid == 0) {
    sleep(30);
    _exit(0);
  }
  return pid;
}

TEST(TimeLimitTest, KillsWhenItRunsOut) {
  pid_t child = Sleeper();
  ASSERT_GT(child, 0);
  const auto start = std::chrono::steady_clock::now();
  TimeLimit limit(0.2, child);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  const auto waited = std::chrono::steady_clock::now() - start;
  limit.Stop();
  EXPECT_TRUE(limit.expired());
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_GE(waited, std::chrono::milliseconds(150));
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST(TimeLimitTest, StopBeforeTheLimitKillsNothing) {
  pid_t child = Sleeper();
  ASSERT_GT(child, 0);
  {
    TimeLimit limit(0.2, child);
    limit.Stop();
    EXPECT_FALSE(limit.expired());
  }
  usleep(400'000);
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, WNOHANG), 0) << "the child was killed";
  kill(child, SIGKILL);
  waitpid(child, &status, 0);
}

TEST(TimeLimitTest, NoLimit) {
  TimeLimit limit(0, getpid());
  limit.Stop();
  EXPECT_FALSE(limit.expired());
}

}  // namespace
}  // namespace snare::sentry
