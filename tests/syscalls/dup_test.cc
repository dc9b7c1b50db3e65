// dup(2), dup2(2) and dup3(2): the lowest free fd, replacing a chosen fd, close-on-exec
// and the errors for the same fd.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(DupTest, DupReturnsLowestFreeFdSharingTheFile) {
  Pipe p = MakePipe();
  UniqueFd copy(dup(p.write_end.get()));
  ASSERT_TRUE(copy.valid()) << strerror(errno);
  EXPECT_NE(copy.get(), p.write_end.get());
  // The lowest free descriptor: nothing below it may be free.
  for (int fd = 0; fd < copy.get(); ++fd) EXPECT_NE(fcntl(fd, F_GETFD), -1) << "fd " << fd;
  ASSERT_EQ(write(copy.get(), "d", 1), 1);
  char c = 0;
  ASSERT_EQ(read(p.read_end.get(), &c, 1), 1);
  EXPECT_EQ(c, 'd');
  // dup() never sets close-on-exec.
  EXPECT_EQ(fcntl(copy.get(), F_GETFD), 0);
}

TEST(DupTest, Dup2OntoChosenFdReplacesIt) {
  Pipe a = MakePipe();
  Pipe b = MakePipe();
  ASSERT_EQ(dup2(a.write_end.get(), b.write_end.get()), b.write_end.get()) << strerror(errno);
  // b's write end now writes into pipe a.
  ASSERT_EQ(write(b.write_end.get(), "2", 1), 1);
  char c = 0;
  ASSERT_EQ(read(a.read_end.get(), &c, 1), 1);
  EXPECT_EQ(c, '2');
  // dup2 of an fd onto itself returns it unchanged.
  EXPECT_EQ(dup2(a.write_end.get(), a.write_end.get()), a.write_end.get());
}

TEST(DupTest, Dup3SetsCloexecAndRejectsSameFd) {
  Pipe a = MakePipe(0);
  Pipe b = MakePipe(0);
  ASSERT_EQ(dup3(a.write_end.get(), b.write_end.get(), O_CLOEXEC), b.write_end.get())
      << strerror(errno);
  EXPECT_EQ(fcntl(b.write_end.get(), F_GETFD), FD_CLOEXEC);
  errno = 0;
  EXPECT_EQ(dup3(a.write_end.get(), a.write_end.get(), 0), -1);
  EXPECT_EQ(errno, EINVAL) << strerror(errno);
}

}  // namespace
}  // namespace snare_syscalls
