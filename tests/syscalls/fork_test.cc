// Process creation and reaping: fork(2) with waitpid(2) exit statuses, kill(2) of a child,
// getppid(2) in the child, vfork(2) (the child shares the parent's memory and stack until it
// execs or exits), clone(2) with CLONE_VM | CLONE_VFORK, and posix_spawn(3).
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

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

// Written by vfork and CLONE_VM children, read by their parents.
volatile int g_written_by_child = 0;

TEST(VforkTest, ChildWritesTheParentsMemory) {
  g_written_by_child = 0;
  pid_t pid = vfork();
  if (pid == 0) {
    g_written_by_child = 1;
    _exit(0);
  }
  ASSERT_GT(pid, 0) << strerror(errno);
  EXPECT_EQ(WaitStatus(pid), 0);
  EXPECT_EQ(g_written_by_child, 1) << "the vfork child did not share the parent's memory";
}

// Writes `bytes` of the stack below the caller's: a vfork child that calls it overwrites
// whatever lies below the parent's stack pointer.
__attribute__((noinline)) int ScribbleOnTheStack(size_t bytes) {
  volatile char area[64 * 1024];
  for (size_t i = 0; i < bytes && i < sizeof(area); ++i) area[i] = static_cast<char>(i * 7);
  return area[bytes / 2];
}

TEST(VforkTest, ParentGoesOnAfterAChildUsedItsStackAndExeced) {
  std::vector<int> before(64);
  for (int i = 0; i < 64; ++i) before[i] = i * i;
  char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
  pid_t pid = vfork();
  if (pid == 0) {
    ScribbleOnTheStack(48 * 1024);
    execve("/bin/true", argv, environ);
    _exit(127);
  }
  ASSERT_GT(pid, 0) << strerror(errno);
  EXPECT_EQ(WaitStatus(pid), 0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(before[i], i * i);
}

TEST(VforkTest, ParentGoesOnAfterAChildUsedItsStackAndExited) {
  volatile int local = 1234;
  pid_t pid = vfork();
  if (pid == 0) {
    ScribbleOnTheStack(48 * 1024);
    _exit(3);
  }
  ASSERT_GT(pid, 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(local, 1234);
}

int WriteAndReturn(void*) {
  g_written_by_child = 2;
  return 5;
}

TEST(CloneTest, VforkChildOnItsOwnStackWritesTheParentsMemory) {
  g_written_by_child = 0;
  std::vector<char> stack(256 * 1024);
  pid_t pid =
      clone(WriteAndReturn, stack.data() + stack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, nullptr);
  ASSERT_GT(pid, 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 5);
  EXPECT_EQ(g_written_by_child, 2) << "the CLONE_VM child did not share the parent's memory";
}

// glibc's child writes its exec's errno into the parent's memory (it shares it by
// CLONE_VM | CLONE_VFORK) and the parent returns it: a child that only looked like a fork
// would report success and leave a child exiting 127.
TEST(PosixSpawnTest, ExecFailureIsTheCallsError) {
  pid_t pid = 0;
  char* const argv[] = {const_cast<char*>("/nonexistent/program"), nullptr};
  EXPECT_EQ(posix_spawn(&pid, "/nonexistent/program", nullptr, nullptr, argv, environ), ENOENT);
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
