// dup(2), dup2(2) and dup3(2): the lowest free fd, replacing a chosen fd, close-on-exec
// and the errors for the same fd; every fd dup hands out works, past 1,024 too.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

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

// CPython's test_selectors opens thousands of fds (test_above_fd_setsize): each one the
// kernel hands out must be usable, whatever numbers snare keeps for itself.
TEST(DupTest, EveryFdDupHandsOutWorksPast1024) {
  rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0) << strerror(errno);
  constexpr rlim_t kWanted = 1100;
  if (saved.rlim_max < kWanted) GTEST_SKIP() << "RLIMIT_NOFILE's hard limit is below 1100";
  rlimit raised = {std::max(saved.rlim_cur, kWanted), saved.rlim_max};
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &raised), 0) << strerror(errno);
  Pipe p = MakePipe();
  std::vector<UniqueFd> fds;
  while (fds.empty() || fds.back().get() < 1050) {
    fds.emplace_back(dup(p.write_end.get()));
    ASSERT_TRUE(fds.back().valid()) << strerror(errno);
    const int fd = fds.back().get();
    EXPECT_EQ(fcntl(fd, F_GETFD), 0) << "fd " << fd << ": " << strerror(errno);
    if (write(fd, "x", 1) != 1) {
      ADD_FAILURE() << "write to fd " << fd << ": " << strerror(errno);
      continue;
    }
    char c;
    ASSERT_EQ(read(p.read_end.get(), &c, 1), 1);
  }
  fds.clear();
  EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0) << strerror(errno);
}

}  // namespace
}  // namespace snare_syscalls
