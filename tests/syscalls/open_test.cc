// openat(2) errors: a missing file is ENOENT, a directory opened for writing is EISDIR.
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(OpenatTest, MissingFileIsEnoent) {
  TempDir dir;
  std::string missing = dir.path() + "/does-not-exist";
  errno = 0;
  EXPECT_EQ(openat(AT_FDCWD, missing.c_str(), O_RDONLY | O_CLOEXEC), -1);
  EXPECT_EQ(errno, ENOENT) << strerror(errno);
}

TEST(OpenatTest, DirectoryForWritingIsEisdir) {
  TempDir dir;
  errno = 0;
  EXPECT_EQ(openat(AT_FDCWD, dir.path().c_str(), O_WRONLY | O_CLOEXEC), -1);
  EXPECT_EQ(errno, EISDIR) << strerror(errno);
}

}  // namespace
}  // namespace snare_syscalls
