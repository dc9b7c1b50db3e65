// Process creation and reaping: fork(2) with waitpid(2) exit statuses, kill(2) of a child,
// getppid(2) in the child, vfork(2) and posix_spawn(3).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

extern char** environ;

namespace snare_syscalls {
namespace {

TEST(ForkTest, WaitpidReportsExitStatus) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) _exit(42);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 42);
}

TEST(ForkTest, KillSigtermIsReportedAsSignaled) {
  Pipe ready = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    ready.read_end.reset();
    ready.write_end.reset();  // EOF tells the parent the child runs
    for (;;) pause();
  }
  ready.write_end.reset();
  char c;
  EXPECT_EQ(read(ready.read_end.get(), &c, 1), 0);
  ASSERT_EQ(kill(pid, SIGTERM), 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(ForkTest, ChildGetppidIsParentGetpid) {
  Pipe p = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    pid_t parent = getppid();
    _exit(write(p.write_end.get(), &parent, sizeof(parent)) == sizeof(parent) ? 0 : 1);
  }
  p.write_end.reset();
  pid_t reported = 0;
  EXPECT_EQ(read(p.read_end.get(), &reported, sizeof(reported)),
            static_cast<ssize_t>(sizeof(reported)));
  int status = WaitStatus(pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(reported, getpid());
}

TEST(VforkTest, ChildExitStatusIsReported) {
  pid_t pid = vfork();
  if (pid == 0) _exit(7);
  ASSERT_GT(pid, 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST(PosixSpawnTest, BinTrueExitsZero) {
  pid_t pid = 0;
  char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
  ASSERT_EQ(posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ), 0);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace snare_syscalls
