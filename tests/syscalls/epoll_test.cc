// epoll(7): epoll_create1(2), epoll_ctl(2) and epoll_wait(2) reporting a readable pipe.
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(EpollTest, WaitReportsReadablePipe) {
  UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
  ASSERT_TRUE(ep.valid()) << strerror(errno);
  Pipe p = MakePipe();
  epoll_event ev = {};
  ev.events = EPOLLIN;
  ev.data.u64 = 0x1234567890abcdefULL;
  ASSERT_EQ(epoll_ctl(ep.get(), EPOLL_CTL_ADD, p.read_end.get(), &ev), 0) << strerror(errno);
  epoll_event out[4] = {};
  EXPECT_EQ(epoll_wait(ep.get(), out, 4, 0), 0) << "empty pipe reported readable";
  ASSERT_EQ(write(p.write_end.get(), "e", 1), 1);
  ASSERT_EQ(epoll_wait(ep.get(), out, 4, 1000), 1) << strerror(errno);
  EXPECT_EQ(out[0].events, static_cast<uint32_t>(EPOLLIN));
  EXPECT_EQ(out[0].data.u64, 0x1234567890abcdefULL);
}

}  // namespace
}  // namespace snare_syscalls
