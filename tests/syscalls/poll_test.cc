// poll(2): a zero timeout returns at once with the ready fds.
#include <poll.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(PollTest, ZeroTimeoutReturnsImmediately) {
  Pipe p = MakePipe();
  pollfd fds[2] = {{p.read_end.get(), POLLIN, 0}, {p.write_end.get(), POLLOUT, 0}};
  int64_t start = MonotonicNs();
  ASSERT_EQ(poll(fds, 1, 0), 0) << strerror(errno);
  EXPECT_EQ(fds[0].revents, 0);
  EXPECT_LT(MonotonicNs() - start, 100 * 1000000LL);
  ASSERT_EQ(poll(fds, 2, 0), 1) << strerror(errno);
  EXPECT_EQ(fds[0].revents, 0);
  EXPECT_EQ(fds[1].revents, POLLOUT);
}

}  // namespace
}  // namespace snare_syscalls
