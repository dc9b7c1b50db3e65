// sigsuspend(2): it wakes with EINTR on a signal it unblocks and restores the mask.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

std::atomic<int> g_sigusr1_count{0};
void CountSigusr1(int) { g_sigusr1_count.fetch_add(1); }

void* SendSigusr1ToMainThread(void* arg) {
  SleepMs(10);
  pthread_kill(*static_cast<pthread_t*>(arg), SIGUSR1);
  return nullptr;
}

TEST(SigsuspendTest, WakesOnSignalAndRestoresMask) {
  ScopedSigaction action(SIGUSR1, CountSigusr1, 0);
  ScopedSigmask restore;
  sigset_t usr1 = SigsetOf({SIGUSR1});
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &usr1, nullptr), 0);
  int before = g_sigusr1_count.load();
  pthread_t self = pthread_self();
  pthread_t sender;
  ASSERT_EQ(pthread_create(&sender, nullptr, SendSigusr1ToMainThread, &self), 0);
  sigset_t wait_mask;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &wait_mask), 0);
  sigdelset(&wait_mask, SIGUSR1);
  errno = 0;
  EXPECT_EQ(sigsuspend(&wait_mask), -1);
  EXPECT_EQ(errno, EINTR) << strerror(errno);
  pthread_join(sender, nullptr);
  EXPECT_EQ(g_sigusr1_count.load() - before, 1);
  sigset_t now;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &now), 0);
  EXPECT_TRUE(sigismember(&now, SIGUSR1)) << "sigsuspend did not restore the mask";
}

}  // namespace
}  // namespace snare_syscalls
