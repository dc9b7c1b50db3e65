#include "abi/errno_name.h"

#include <errno.h>
#include <string.h>

#include <string>

#include "gtest/gtest.h"

namespace snare::abi {
namespace {

TEST(ErrnoNameTest, MatchesGlibcForAllLinuxErrnos) {
  int named = 0;
  for (int e = 1; e <= 133; ++e) {
    SCOPED_TRACE(e);
    const char* glibc_name = strerrorname_np(e);
    if (glibc_name == nullptr) {
      // 41 and 58 are unused on x86-64; glibc says "Unknown error 41", we say "Unknown error".
      EXPECT_EQ(ErrnoName(e), nullptr);
      EXPECT_STREQ(ErrnoDescription(e), "Unknown error");
      EXPECT_EQ(std::string(strerror(e)), "Unknown error " + std::to_string(e));
      continue;
    }
    ++named;
    ASSERT_NE(ErrnoName(e), nullptr);
    EXPECT_STREQ(ErrnoName(e), glibc_name);
    EXPECT_STREQ(ErrnoDescription(e), strerror(e));
  }
  EXPECT_EQ(named, 131);
}

TEST(ErrnoNameTest, FromNameRoundTrips) {
  for (int e = 1; e <= 133; ++e) {
    SCOPED_TRACE(e);
    const char* name = ErrnoName(e);
    if (name == nullptr) continue;
    EXPECT_EQ(ErrnoFromName(name), e);
    EXPECT_EQ(ErrnoFromName(strerrorname_np(e)), e);
  }
  for (int e = 512; e <= 516; ++e) {
    SCOPED_TRACE(e);
    ASSERT_NE(ErrnoName(e), nullptr);
    EXPECT_EQ(ErrnoFromName(ErrnoName(e)), e);
  }
}

TEST(ErrnoNameTest, SpotChecks) {
  EXPECT_STREQ(ErrnoName(ENOENT), "ENOENT");
  EXPECT_STREQ(ErrnoDescription(ENOENT), "No such file or directory");
  EXPECT_EQ(ErrnoFromName("ENOENT"), 2);
  EXPECT_STREQ(ErrnoName(1), "EPERM");
  EXPECT_STREQ(ErrnoName(133), "EHWPOISON");
  EXPECT_EQ(ErrnoFromName("EHWPOISON"), 133);
}

TEST(ErrnoNameTest, KernelRestartCodes) {
  EXPECT_STREQ(ErrnoName(512), "ERESTARTSYS");
  EXPECT_STREQ(ErrnoName(513), "ERESTARTNOINTR");
  EXPECT_STREQ(ErrnoName(514), "ERESTARTNOHAND");
  EXPECT_STREQ(ErrnoName(515), "ENOIOCTLCMD");
  EXPECT_STREQ(ErrnoName(516), "ERESTART_RESTARTBLOCK");
  EXPECT_STREQ(ErrnoDescription(512), "To be restarted if SA_RESTART is set");
  EXPECT_STREQ(ErrnoDescription(513), "To be restarted");
  EXPECT_STREQ(ErrnoDescription(514), "To be restarted if no handler");
  EXPECT_STREQ(ErrnoDescription(515), "No ioctl command");
  EXPECT_STREQ(ErrnoDescription(516), "Interrupted by signal");
  EXPECT_EQ(ErrnoName(511), nullptr);
  EXPECT_EQ(ErrnoName(517), nullptr);
  // ERESTART (85) is a real user-visible errno, distinct from the kernel-internal codes.
  EXPECT_STREQ(ErrnoName(85), "ERESTART");
  EXPECT_EQ(ErrnoFromName("ERESTART"), 85);
}

TEST(ErrnoNameTest, Aliases) {
  EXPECT_EQ(EWOULDBLOCK, EAGAIN);
  EXPECT_EQ(EDEADLOCK, EDEADLK);
  EXPECT_EQ(ENOTSUP, EOPNOTSUPP);
  EXPECT_STREQ(ErrnoName(EWOULDBLOCK), "EAGAIN");
  EXPECT_STREQ(ErrnoName(EDEADLOCK), "EDEADLK");
  EXPECT_STREQ(ErrnoName(ENOTSUP), "EOPNOTSUPP");
  EXPECT_EQ(ErrnoFromName("EWOULDBLOCK"), EAGAIN);
  EXPECT_EQ(ErrnoFromName("EDEADLOCK"), EDEADLK);
  EXPECT_EQ(ErrnoFromName("ENOTSUP"), EOPNOTSUPP);
  EXPECT_EQ(ErrnoFromName("EAGAIN"), EAGAIN);
  EXPECT_EQ(ErrnoFromName("EDEADLK"), EDEADLK);
  EXPECT_EQ(ErrnoFromName("EOPNOTSUPP"), EOPNOTSUPP);
}

TEST(ErrnoNameTest, UnknownNumbers) {
  for (int e : {0, 41, 58, 134, -1, -2, 100000, 511, 517}) {
    SCOPED_TRACE(e);
    EXPECT_EQ(ErrnoName(e), nullptr);
    EXPECT_STREQ(ErrnoDescription(e), "Unknown error");
  }
}

TEST(ErrnoNameTest, UnknownNames) {
  EXPECT_EQ(ErrnoFromName(nullptr), -1);
  EXPECT_EQ(ErrnoFromName(""), -1);
  EXPECT_EQ(ErrnoFromName("E"), -1);
  EXPECT_EQ(ErrnoFromName("ENOEN"), -1);
  EXPECT_EQ(ErrnoFromName("ENOENTX"), -1);
  EXPECT_EQ(ErrnoFromName("enoent"), -1);
  EXPECT_EQ(ErrnoFromName(" ENOENT"), -1);
  EXPECT_EQ(ErrnoFromName("EFOO"), -1);
}

}  // namespace
}  // namespace snare::abi
