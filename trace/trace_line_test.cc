#include "trace/trace_line.h"

#include <asm/unistd_64.h>
#include <stdint.h>

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace snare::trace {
namespace {

constexpr uint64_t kAtFdcwd = static_cast<uint64_t>(-100);

// Formats into a large buffer and returns the line.
std::string Format(const TraceCall& call, bool has_result, int64_t result,
                   const char* annotation = nullptr) {
  char buf[4096];
  size_t n = FormatTraceLine(buf, sizeof(buf), call, has_result, result, annotation);
  EXPECT_LE(n, sizeof(buf));
  return std::string(buf, n);
}

TraceCall Call(uint64_t nr, const uint64_t* args, const char* s0 = nullptr,
               const char* s1 = nullptr, size_t string_max = 96) {
  return TraceCall{42, nr, args, {s0, s1}, string_max};
}

TEST(TraceLineTest, NoArguments) {
  const uint64_t args[6] = {};
  EXPECT_EQ(Format(Call(__NR_getppid, args), true, 5), "[42] getppid() = 5\n");
}

TEST(TraceLineTest, PathAndErrno) {
  const uint64_t args[6] = {kAtFdcwd, 0x7ffc0000, 0, 0};
  EXPECT_EQ(
      Format(Call(__NR_openat, args, "/etc/x"), true, -2),
      "[42] openat(AT_FDCWD, \"/etc/x\", 0x0, 0x0) = -1 ENOENT (No such file or directory)\n");
}

TEST(TraceLineTest, ArgumentKinds) {
  // read(Fd, Ptr, Uint): a null pointer is NULL, sizes are unsigned.
  const uint64_t read_args[6] = {3, 0, ~0ull};
  EXPECT_EQ(Format(Call(__NR_read, read_args), true, 0),
            "[42] read(3, NULL, 18446744073709551615) = 0\n");
  // Without a copy of the string the path pointer is printed in hex; a null path is NULL.
  const uint64_t open_args[6] = {5, 0x1234, 0x80000, 0};
  EXPECT_EQ(Format(Call(__NR_openat, open_args), true, 6),
            "[42] openat(5, 0x1234, 0x80000, 0x0) = 6\n");
  const uint64_t null_path[6] = {5, 0, 0, 0};
  EXPECT_EQ(Format(Call(__NR_openat, null_path, "ignored"), true, 6),
            "[42] openat(5, NULL, 0x0, 0x0) = 6\n");
  // mmap's result is an address.
  const uint64_t mmap_args[6] = {0, 4096, 3, 0x22, ~0ull, 0};
  EXPECT_EQ(Format(Call(__NR_mmap, mmap_args), true, 0x7f0000001000),
            "[42] mmap(0x0, 4096, 0x3, 0x22, -1, 0x0) = 0x7f0000001000\n");
}

TEST(TraceLineTest, StringsAreEscaped) {
  const uint64_t args[6] = {kAtFdcwd, 0x1000, 0, 0};
  EXPECT_EQ(Format(Call(__NR_openat, args, "a\"b\\c\nd\te\x01"), true, 3),
            "[42] openat(AT_FDCWD, \"a\\\"b\\\\c\\nd\\te\\001\", 0x0, 0x0) = 3\n");
  EXPECT_EQ(Format(Call(__NR_openat, args, "\xc3\xa9"), true, 3),
            "[42] openat(AT_FDCWD, \"\\303\\251\", 0x0, 0x0) = 3\n");
}

TEST(TraceLineTest, TwoPaths) {
  const uint64_t args[6] = {kAtFdcwd, 0x1000, kAtFdcwd, 0x2000, 1};
  EXPECT_EQ(Format(Call(__NR_renameat2, args, "old", "new"), true, 0),
            "[42] renameat2(AT_FDCWD, \"old\", AT_FDCWD, \"new\", 0x1) = 0\n");
}

TEST(TraceLineTest, Annotation) {
  const uint64_t args[6] = {};
  std::string line = Format(Call(__NR_reboot, args), true, -1, "denied");
  EXPECT_EQ(line,
            "[42] reboot(0x0, 0x0, 0x0, NULL) = -1 EPERM (Operation not permitted) <denied>\n");
  ASSERT_GE(line.size(), 10u);
  EXPECT_EQ(line.substr(line.size() - 10), " <denied>\n");
}

TEST(TraceLineTest, NoResult) {
  const uint64_t args[6] = {0};
  EXPECT_EQ(Format(Call(__NR_exit_group, args), false, 0), "[42] exit_group(0) = ?\n");
}

TEST(TraceLineTest, UnknownSyscall) {
  const uint64_t args[6] = {1, 2, 0x30, 0, 0xffffffffffffffff, 6};
  EXPECT_EQ(Format(Call(999, args), true, -38),
            "[42] syscall_999(0x1, 0x2, 0x30, 0x0, 0xffffffffffffffff, 0x6) = -1 ENOSYS "
            "(Function not implemented)\n");
}

TEST(TraceLineTest, LongPathIsCut) {
  // The copy holds string_max bytes, not necessarily NUL-terminated: at most string_max - 1
  // are printed, and "..." says there was more.
  const char copy[8] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  const uint64_t args[6] = {kAtFdcwd, 0x1000, 0, 0};
  EXPECT_EQ(Format(Call(__NR_openat, args, copy, nullptr, sizeof(copy)), true, 3),
            "[42] openat(AT_FDCWD, \"abcdefg\"..., 0x0, 0x0) = 3\n");
  // A string that fits exactly is not cut.
  EXPECT_EQ(Format(Call(__NR_openat, args, "abcdefg", nullptr, 8), true, 3),
            "[42] openat(AT_FDCWD, \"abcdefg\", 0x0, 0x0) = 3\n");
}

TEST(TraceLineTest, NegativeAndLargeResults) {
  const uint64_t args[6] = {};
  // Below -4095 a negative result is a value, not an errno.
  EXPECT_EQ(Format(Call(__NR_getppid, args), true, -4096), "[42] getppid() = -4096\n");
  EXPECT_EQ(Format(Call(__NR_getppid, args), true, -4095),
            "[42] getppid() = -1 E4095 (Unknown error)\n");
  TraceCall call = Call(__NR_getppid, args);
  call.tid = -7;
  EXPECT_EQ(Format(call, true, 0), "[-7] getppid() = 0\n");
}

TEST(TraceLineTest, NeverWritesPastCap) {
  const uint64_t args[6] = {kAtFdcwd, 0x1000, 0, 0};
  const TraceCall call = Call(__NR_openat, args, "/a/rather/long/path/name");
  for (size_t cap = 0; cap <= 96; ++cap) {
    SCOPED_TRACE(cap);
    char buf[128];
    std::memset(buf, '#', sizeof(buf));
    size_t n = FormatTraceLine(buf, cap, call, true, -2, "denied");
    EXPECT_LE(n, cap);
    for (size_t i = cap; i < sizeof(buf); ++i) ASSERT_EQ(buf[i], '#') << "byte " << i;
  }
  // Truncation keeps a prefix of the full line, and the line still ends the output.
  const std::string full = Format(call, true, -2, "denied");
  char buf[16 + 4];
  std::memset(buf, '#', sizeof(buf));
  size_t n = FormatTraceLine(buf, 16, call, true, -2, "denied");
  ASSERT_GT(n, 0u);
  EXPECT_EQ(std::string(buf, n - 1), full.substr(0, n - 1));
  EXPECT_EQ(buf[n - 1], '\n');
  for (size_t i = 16; i < sizeof(buf); ++i) EXPECT_EQ(buf[i], '#') << "byte " << i;
}

// A line cut to fit still ends with its newline, so the next line starts on its own.
TEST(TraceLineTest, TruncatedLineEndsWithNewline) {
  const uint64_t args[6] = {kAtFdcwd, 0x1000, kAtFdcwd, 0x2000, 0};
  std::string utf8(95, '\xc3');
  char line[512];
  size_t n = FormatTraceLine(
      line, sizeof(line), Call(__NR_renameat2, args, utf8.c_str(), utf8.c_str()), true, 0, nullptr);
  ASSERT_GT(n, 0u);
  EXPECT_EQ(line[n - 1], '\n');

  const uint64_t none[6] = {};
  n = FormatTraceLine(line, 16, Call(__NR_getppid, none), true, 5, nullptr);
  ASSERT_GT(n, 0u);
  EXPECT_EQ(line[n - 1], '\n') << std::string(line, n);
}

}  // namespace
}  // namespace snare::trace
