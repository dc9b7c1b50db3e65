// eventfd(2): writes add up in the counter, and a non-blocking read of zero is EAGAIN.
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(EventfdTest, WritesAddUpAndNonblockingReadOfZeroIsEagain) {
  UniqueFd efd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  ASSERT_TRUE(efd.valid()) << strerror(errno);
  uint64_t value = 3;
  ASSERT_EQ(write(efd.get(), &value, sizeof(value)), static_cast<ssize_t>(sizeof(value)));
  value = 4;
  ASSERT_EQ(write(efd.get(), &value, sizeof(value)), static_cast<ssize_t>(sizeof(value)));
  uint64_t got = 0;
  ASSERT_EQ(read(efd.get(), &got, sizeof(got)), static_cast<ssize_t>(sizeof(got)));
  EXPECT_EQ(got, 7u);
  errno = 0;
  EXPECT_EQ(read(efd.get(), &got, sizeof(got)), -1);
  EXPECT_EQ(errno, EAGAIN) << strerror(errno);
}

}  // namespace
}  // namespace snare_syscalls
