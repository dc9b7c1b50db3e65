#include "util/fd_passing.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

namespace snare::util {
namespace {

TEST(FdPassingTest, AMessageCarriesItsFdCloseOnExec) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  ASSERT_EQ(SendWithFd(sv[0], "ready", 5, pipefd[1]), 5);
  char buf[16] = {};
  int got = -2;
  ASSERT_EQ(ReceiveWithFd(sv[1], buf, sizeof(buf), &got), 5);
  EXPECT_STREQ(buf, "ready");
  ASSERT_GE(got, 0);
  EXPECT_NE(got, pipefd[1]);
  EXPECT_TRUE(fcntl(got, F_GETFD) & FD_CLOEXEC);
  ASSERT_EQ(write(got, "x", 1), 1);  // the same pipe
  char c = 0;
  ASSERT_EQ(read(pipefd[0], &c, 1), 1);
  EXPECT_EQ(c, 'x');
  close(got);
  // Without an fd, none arrives.
  ASSERT_EQ(SendWithFd(sv[0], "plain", 5), 5);
  ASSERT_EQ(ReceiveWithFd(sv[1], buf, sizeof(buf), &got), 5);
  EXPECT_EQ(got, -1);
  for (int fd : {sv[0], sv[1], pipefd[0], pipefd[1]}) close(fd);
}

}  // namespace
}  // namespace snare::util
