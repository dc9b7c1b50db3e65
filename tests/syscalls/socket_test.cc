// Unix domain sockets: socketpair(2), and sendmsg(2)/recvmsg(2) passing a pipe fd with
// SCM_RIGHTS that still works.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(ScmRightsTest, SendmsgPassesAPipeFdThatStillWorks) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0) << strerror(errno);
  UniqueFd a(sv[0]);
  UniqueFd b(sv[1]);
  Pipe p = MakePipe();

  char payload = 'F';
  iovec iov = {&payload, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int));
  int passed = p.write_end.get();
  memcpy(CMSG_DATA(cmsg), &passed, sizeof(int));
  ASSERT_EQ(sendmsg(a.get(), &msg, 0), 1) << strerror(errno);

  char got = 0;
  iovec riov = {&got, 1};
  alignas(cmsghdr) char rcontrol[CMSG_SPACE(sizeof(int))] = {};
  msghdr rmsg = {};
  rmsg.msg_iov = &riov;
  rmsg.msg_iovlen = 1;
  rmsg.msg_control = rcontrol;
  rmsg.msg_controllen = sizeof(rcontrol);
  ASSERT_EQ(recvmsg(b.get(), &rmsg, MSG_CMSG_CLOEXEC), 1) << strerror(errno);
  EXPECT_EQ(got, 'F');
  EXPECT_EQ(rmsg.msg_flags & MSG_CTRUNC, 0);
  cmsghdr* rcmsg = CMSG_FIRSTHDR(&rmsg);
  ASSERT_NE(rcmsg, nullptr);
  ASSERT_EQ(rcmsg->cmsg_level, SOL_SOCKET);
  ASSERT_EQ(rcmsg->cmsg_type, SCM_RIGHTS);
  int received_fd = -1;
  memcpy(&received_fd, CMSG_DATA(rcmsg), sizeof(int));
  UniqueFd received(received_fd);
  ASSERT_TRUE(received.valid());
  EXPECT_NE(received.get(), p.write_end.get());
  EXPECT_EQ(fcntl(received.get(), F_GETFD), FD_CLOEXEC);
  // The received descriptor is the pipe's write end.
  p.write_end.reset();
  ASSERT_EQ(write(received.get(), "via-fd", 6), 6);
  received.reset();
  EXPECT_EQ(ReadAll(p.read_end.get()), "via-fd");
}

}  // namespace
}  // namespace snare_syscalls
