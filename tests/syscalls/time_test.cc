// Clocks and sleeping: the raw clock_gettime(2) syscall's monotonic clock advances, and
// nanosleep(2) sleeps at least as long as asked.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(ClockGettimeTest, MonotonicIncreases) {
  // The raw syscall, so that it enters the kernel (the libc call uses the vDSO).
  timespec a = {};
  timespec b = {};
  ASSERT_EQ(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a), 0) << strerror(errno);
  SleepMs(1);
  ASSERT_EQ(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b), 0) << strerror(errno);
  int64_t delta = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
  EXPECT_GE(delta, 1000000) << "monotonic clock advanced " << delta << " ns over a 1 ms sleep";
  EXPECT_GE(b.tv_nsec, 0);
  EXPECT_LT(b.tv_nsec, 1000000000);
}

TEST(NanosleepTest, SleepsAtLeastOneMillisecond) {
  int64_t start = MonotonicNs();
  timespec req = {0, 1000000};
  timespec rem = {};
  ASSERT_EQ(nanosleep(&req, &rem), 0) << strerror(errno);
  EXPECT_GE(MonotonicNs() - start, 1000000);
}

}  // namespace
}  // namespace snare_syscalls
