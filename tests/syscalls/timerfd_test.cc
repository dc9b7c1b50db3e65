// timerfd_create(2): a blocking read returns the expiration after the timeout, and a
// one-shot timer is disarmed once it fired.
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(TimerfdTest, BlockingReadReturnsExpirationAfterTheTimeout) {
  UniqueFd tfd(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  ASSERT_TRUE(tfd.valid()) << strerror(errno);
  itimerspec its = {};
  its.it_value.tv_nsec = 10 * 1000000;  // 10 ms, one shot
  int64_t start = MonotonicNs();
  ASSERT_EQ(timerfd_settime(tfd.get(), 0, &its, nullptr), 0) << strerror(errno);
  uint64_t expirations = 0;
  ASSERT_EQ(read(tfd.get(), &expirations, sizeof(expirations)),
            static_cast<ssize_t>(sizeof(expirations)))
      << strerror(errno);
  EXPECT_EQ(expirations, 1u);
  EXPECT_GE(MonotonicNs() - start, 10 * 1000000LL);
  itimerspec now = {};
  ASSERT_EQ(timerfd_gettime(tfd.get(), &now), 0);
  EXPECT_EQ(now.it_value.tv_sec, 0);
  EXPECT_EQ(now.it_value.tv_nsec, 0) << "a one-shot timer is disarmed after it fired";
}

}  // namespace
}  // namespace snare_syscalls
