// uname(2): the system is Linux on x86_64 with a non-empty release.
#include <sys/utsname.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(UnameTest, SysnameIsLinux) {
  utsname u = {};
  ASSERT_EQ(uname(&u), 0) << strerror(errno);
  EXPECT_STREQ(u.sysname, "Linux");
  EXPECT_STREQ(u.machine, "x86_64");
  EXPECT_GT(strlen(u.release), 0u);
}

}  // namespace
}  // namespace snare_syscalls
