// read(2) into a bad pointer: EFAULT, and the data stays readable for a good buffer.
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(FaultTest, ReadIntoBadPointerIsEfault) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "data", 4), 4);
  // volatile: the compiler may neither see nor check the bad destination.
  void* volatile bad = reinterpret_cast<void*>(1);
  errno = 0;
  EXPECT_EQ(read(p.read_end.get(), bad, 4), -1);
  EXPECT_EQ(errno, EFAULT) << strerror(errno);
  // The data is still there for a good buffer.
  char buf[4];
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 4);
}

}  // namespace
}  // namespace snare_syscalls
