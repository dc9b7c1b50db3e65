// sigaction(2) and raw rt_sigaction(2): the old action (handler, flags, restorer, mask)
// reads back what was set.
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

// The kernel's SA_RESTORER flag (glibc does not export it to programs).
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

namespace snare_syscalls {
namespace {

void Sigusr1InfoHandler(int, siginfo_t*, void*) {}
void OtherSigusr1Handler(int) {}

TEST(SigactionTest, OldActionRoundTripsForSigusr1) {
  struct sigaction saved = {};
  ASSERT_EQ(sigaction(SIGUSR1, nullptr, &saved), 0);
  struct sigaction sa = {};
  sa.sa_sigaction = Sigusr1InfoHandler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
  sa.sa_mask = SigsetOf({SIGUSR2, SIGTERM});
  ASSERT_EQ(sigaction(SIGUSR1, &sa, nullptr), 0);

  struct sigaction other = {};
  other.sa_handler = OtherSigusr1Handler;
  sigemptyset(&other.sa_mask);
  struct sigaction old = {};
  ASSERT_EQ(sigaction(SIGUSR1, &other, &old), 0);
  EXPECT_EQ(old.sa_sigaction, &Sigusr1InfoHandler);
  // glibc adds SA_RESTORER to every action it installs.
  EXPECT_EQ(old.sa_flags & ~SA_RESTORER, SA_SIGINFO | SA_RESTART | SA_NODEFER);
  EXPECT_TRUE(sigismember(&old.sa_mask, SIGUSR2));
  EXPECT_TRUE(sigismember(&old.sa_mask, SIGTERM));
  EXPECT_FALSE(sigismember(&old.sa_mask, SIGINT));

  struct sigaction now = {};
  ASSERT_EQ(sigaction(SIGUSR1, &saved, &now), 0);
  EXPECT_EQ(now.sa_handler, &OtherSigusr1Handler);
}

// The kernel's struct sigaction for rt_sigaction(2) on x86-64.
struct KernelSigaction {
  void* handler;
  unsigned long flags;
  void* restorer;
  uint64_t mask;
};

extern "C" void DummyRestorer() {}

TEST(SigactionTest, RawRtSigactionReadsBackHandlerFlagsRestorerAndMask) {
  KernelSigaction saved = {};
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, nullptr, &saved, 8), 0) << strerror(errno);
  KernelSigaction set = {};
  set.handler = reinterpret_cast<void*>(&OtherSigusr1Handler);
  set.flags = SA_RESTORER | SA_RESTART;
  set.restorer = reinterpret_cast<void*>(&DummyRestorer);
  set.mask = 1ULL << (SIGUSR2 - 1);
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, &set, nullptr, 8), 0) << strerror(errno);
  KernelSigaction got = {};
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, &saved, &got, 8), 0) << strerror(errno);
  EXPECT_EQ(got.handler, set.handler);
  EXPECT_EQ(got.flags, set.flags);
  EXPECT_EQ(got.restorer, set.restorer);
  EXPECT_EQ(got.mask, set.mask);
}

}  // namespace
}  // namespace snare_syscalls
