// execve(2): the errno for a missing path, a directory, a non-executable file and an
// executable that is not a program, and a #! script run under its interpreter.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

extern char** environ;

namespace snare_syscalls {
namespace {

// Forks a child that calls execve(path) and reports its errno through a close-on-exec pipe.
// Returns that errno, 0 if the execve succeeded (EOF on the pipe), or -1 on a test error.
int ExecveErrnoInChild(const std::string& path) {
  Pipe p = MakePipe(O_CLOEXEC);
  if (!p.write_end.valid()) return -1;
  pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << strerror(errno);
    return -1;
  }
  if (pid == 0) {
    char* const argv[] = {const_cast<char*>(path.c_str()), nullptr};
    execve(path.c_str(), argv, environ);
    int err = errno;
    ssize_t ignored = write(p.write_end.get(), &err, sizeof(err));
    (void)ignored;
    _exit(0);
  }
  p.write_end.reset();
  int err = 0;
  ssize_t n;
  while ((n = read(p.read_end.get(), &err, sizeof(err))) < 0 && errno == EINTR) {
  }
  int status = WaitStatus(pid);
  if (n == 0) return 0;
  if (n != sizeof(err)) {
    ADD_FAILURE() << "short read of the child's errno: " << n;
    return -1;
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  return err;
}

TEST(ExecveTest, MissingPathIsEnoent) {
  TempDir dir;
  EXPECT_EQ(ExecveErrnoInChild(dir.path() + "/no-such-program"), ENOENT);
}

TEST(ExecveTest, DirectoryIsEacces) {
  TempDir dir;
  EXPECT_EQ(ExecveErrnoInChild(dir.path()), EACCES);
}

TEST(ExecveTest, NonExecutableFileIsEacces) {
  TempDir dir;
  std::string file = dir.WriteFile("not-executable", "#!/bin/sh\necho no\n", 0644);
  EXPECT_EQ(ExecveErrnoInChild(file), EACCES);
}

TEST(ExecveTest, ExecutableGarbageIsEnoexec) {
  TempDir dir;
  std::string garbage(256, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(0x80 + i % 97);
  std::string file = dir.WriteFile("garbage", garbage, 0755);
  EXPECT_EQ(ExecveErrnoInChild(file), ENOEXEC);
}

TEST(ExecveTest, ShebangScriptRunsUnderItsInterpreter) {
  TempDir dir;
  std::string script =
      dir.WriteFile("script.sh", "#!/bin/sh\necho \"script-marker $1\"\nexit 5\n", 0755);
  Pipe out = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    if (dup2(out.write_end.get(), STDOUT_FILENO) != STDOUT_FILENO) _exit(120);
    char* const argv[] = {const_cast<char*>(script.c_str()), const_cast<char*>("arg1"), nullptr};
    execve(script.c_str(), argv, environ);
    _exit(121);
  }
  out.write_end.reset();
  std::string output = ReadAll(out.read_end.get());
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 5);
  EXPECT_EQ(output, "script-marker arg1\n");
}

}  // namespace
}  // namespace snare_syscalls
