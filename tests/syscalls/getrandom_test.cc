// getrandom(2): it fills the buffer, and two calls return different bytes.
#include <sys/random.h>
#include <sys/types.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(GetrandomTest, FillsSixteenBytes) {
  unsigned char a[16] = {};
  unsigned char b[16] = {};
  ASSERT_EQ(getrandom(a, sizeof(a), 0), static_cast<ssize_t>(sizeof(a))) << strerror(errno);
  ASSERT_EQ(getrandom(b, sizeof(b), 0), static_cast<ssize_t>(sizeof(b))) << strerror(errno);
  EXPECT_NE(memcmp(a, b, sizeof(a)), 0) << "two getrandom calls returned the same 16 bytes";
}

}  // namespace
}  // namespace snare_syscalls
