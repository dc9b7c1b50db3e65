// pipe2(2) and read(2)/write(2) on pipes: data written is read back, and read returns 0
// at EOF once the writer closes.
#include <unistd.h>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(PipeTest, WriteThenReadReturnsTheData) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "hello", 5), 5);
  char buf[16] = {};
  ASSERT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 5);
  EXPECT_STREQ(buf, "hello");
}

TEST(PipeTest, ReadReturnsZeroAtEofAfterWriterCloses) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "x", 1), 1);
  p.write_end.reset();
  char buf[4];
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 1);
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 0);
}

}  // namespace
}  // namespace snare_syscalls
