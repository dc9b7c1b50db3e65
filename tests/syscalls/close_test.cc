// close(2) and close_range(2): closing a closed fd is EBADF; a child that closes every fd
// from 3 up keeps stdout and keeps working.
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(CloseTest, ClosingAClosedFdIsEbadf) {
  Pipe p = MakePipe();
  int fd = p.read_end.release();
  ASSERT_EQ(close(fd), 0);
  errno = 0;
  EXPECT_EQ(close(fd), -1);
  EXPECT_EQ(errno, EBADF) << strerror(errno);
}

TEST(CloseRangeTest, ChildKeepsStdoutAfterClosingFromThree) {
  Pipe p = MakePipe(0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) _exit(10);
    // Everything from 3 up is gone...
    if (fcntl(p.read_end.get(), F_GETFD) != -1 || errno != EBADF) _exit(11);
    // ...and the process still works: stdout is writable and syscalls still return.
    static const char kLine[] = "close_range child: stdout still open\n";
    if (write(STDOUT_FILENO, kLine, sizeof(kLine) - 1) != sizeof(kLine) - 1) _exit(12);
    if (getppid() <= 0) _exit(13);
    _exit(0);
  }
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace snare_syscalls
