// prctl(2) PR_SET_NAME/PR_GET_NAME and /proc/self/comm: the thread name round-trips, is
// truncated to 15 bytes, and /proc/self/comm shows it.
#include <sys/prctl.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

// Restores the calling thread's name when it goes out of scope.
class ScopedThreadName {
 public:
  ScopedThreadName() { prctl(PR_GET_NAME, saved_, 0, 0, 0); }
  ScopedThreadName(const ScopedThreadName&) = delete;
  ScopedThreadName& operator=(const ScopedThreadName&) = delete;
  ~ScopedThreadName() { prctl(PR_SET_NAME, saved_, 0, 0, 0); }

 private:
  char saved_[16] = {};
};

TEST(PrctlTest, SetNameThenGetNameRoundTrips) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "snare-prctl", 0, 0, 0), 0) << strerror(errno);
  char name[16] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, name, 0, 0, 0), 0) << strerror(errno);
  EXPECT_STREQ(name, "snare-prctl");
}

TEST(PrctlTest, SetNameTruncatesToFifteenBytes) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "0123456789abcdefghij", 0, 0, 0), 0) << strerror(errno);
  char name[32] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, name, 0, 0, 0), 0) << strerror(errno);
  EXPECT_STREQ(name, "0123456789abcde");
}

TEST(ProcSelfCommTest, EqualsTheNameSetWithPrctl) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "snare-comm", 0, 0, 0), 0) << strerror(errno);
  std::ifstream comm("/proc/self/comm");
  ASSERT_TRUE(comm.good());
  std::string content((std::istreambuf_iterator<char>(comm)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "snare-comm\n");
}

}  // namespace
}  // namespace snare_syscalls
