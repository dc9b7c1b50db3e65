// brk(2): querying the break returns a non-zero, stable value.
#include <sys/syscall.h>
#include <unistd.h>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(BrkTest, QueryReturnsNonZeroBreak) {
  long brk0 = syscall(SYS_brk, 0);
  EXPECT_NE(brk0, 0);
  EXPECT_EQ(syscall(SYS_brk, 0), brk0) << "brk(0) is not stable";
}

}  // namespace
}  // namespace snare_syscalls
