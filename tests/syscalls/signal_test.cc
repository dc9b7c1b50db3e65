// Signal delivery and masks: SIGALRM interrupting a blocking read(2) with EINTR without
// SA_RESTART and restarting it with SA_RESTART, a blocked signal staying pending until
// unblocked, and sigprocmask(2) reading back the blocked set.
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

std::atomic<int> g_sigalrm_count{0};
std::atomic<pid_t> g_sigalrm_tid{0};
void CountSigalrm(int) {
  g_sigalrm_tid.store(static_cast<pid_t>(syscall(SYS_gettid)));
  g_sigalrm_count.fetch_add(1);
}

// Arms ITIMER_REAL to fire every ms milliseconds (periodic, so that a blocking call is
// interrupted even when the first expiry comes before the call blocks); disarms it when it
// goes out of scope.
class ScopedRealTimer {
 public:
  explicit ScopedRealTimer(long ms) {
    itimerval it = {};
    it.it_value.tv_sec = ms / 1000;
    it.it_value.tv_usec = (ms % 1000) * 1000;
    it.it_interval = it.it_value;
    EXPECT_EQ(setitimer(ITIMER_REAL, &it, nullptr), 0) << strerror(errno);
  }
  ScopedRealTimer(const ScopedRealTimer&) = delete;
  ScopedRealTimer& operator=(const ScopedRealTimer&) = delete;
  ~ScopedRealTimer() {
    itimerval off = {};
    setitimer(ITIMER_REAL, &off, nullptr);
  }
};

TEST(SignalTest, SigalrmInterruptsPipeReadWithEintrWithoutSaRestart) {
  ScopedSigaction action(SIGALRM, CountSigalrm, 0);
  Pipe p = MakePipe();
  int before = g_sigalrm_count.load();
  ScopedRealTimer timer(20);
  char buf[8];
  errno = 0;
  ssize_t n = read(p.read_end.get(), buf, sizeof(buf));
  int err = errno;
  EXPECT_EQ(n, -1);
  EXPECT_EQ(err, EINTR) << strerror(err);
  EXPECT_GE(g_sigalrm_count.load() - before, 1);
}

struct DelayedWriter {
  int fd;
  int alarm_count_before;
};

void* WriteAfterAlarms(void* arg) {
  auto* w = static_cast<DelayedWriter*>(arg);
  // Waits (at most 5 s) until the SIGALRM handler has run three times in the reader, which
  // by then blocks in read(), then writes.
  for (int i = 0; i < 5000 && g_sigalrm_count.load() - w->alarm_count_before < 3; ++i) {
    SleepMs(1);
  }
  ssize_t ignored = write(w->fd, "restarted", 9);
  (void)ignored;
  return nullptr;
}

TEST(SignalTest, SigalrmWithSaRestartRestartsPipeRead) {
  ScopedSigaction action(SIGALRM, CountSigalrm, SA_RESTART);
  Pipe p = MakePipe();
  DelayedWriter writer{p.write_end.get(), g_sigalrm_count.load()};
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, nullptr, WriteAfterAlarms, &writer), 0);
  char buf[16] = {};
  ssize_t n;
  int err;
  {
    ScopedThreadTimer timer(SIGALRM, 10'000'000);
    errno = 0;
    n = read(p.read_end.get(), buf, sizeof(buf) - 1);
    err = errno;
  }
  pthread_join(thread, nullptr);
  EXPECT_EQ(n, 9) << "errno " << strerror(err);
  EXPECT_STREQ(buf, "restarted");
  EXPECT_GE(g_sigalrm_count.load() - writer.alarm_count_before, 3);
  EXPECT_EQ(g_sigalrm_tid.load(), syscall(SYS_gettid))
      << "the thread-directed SIGALRM was handled on another thread";
}

std::atomic<int> g_sigusr2_count{0};
void CountSigusr2(int) { g_sigusr2_count.fetch_add(1); }

TEST(SignalTest, BlockedSignalStaysPendingAndIsDeliveredOnUnblock) {
  ScopedSigaction action(SIGUSR2, CountSigusr2, 0);
  ScopedSigmask restore;
  sigset_t usr2 = SigsetOf({SIGUSR2});
  ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr2, nullptr), 0);
  int before = g_sigusr2_count.load();
  ASSERT_EQ(raise(SIGUSR2), 0);
  EXPECT_EQ(g_sigusr2_count.load(), before) << "delivered while blocked";
  sigset_t pending;
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_TRUE(sigismember(&pending, SIGUSR2));
  ASSERT_EQ(sigprocmask(SIG_UNBLOCK, &usr2, nullptr), 0);
  EXPECT_EQ(g_sigusr2_count.load() - before, 1) << "not delivered when unblocked";
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_FALSE(sigismember(&pending, SIGUSR2));
}

TEST(SignalTest, SigprocmaskReadsBackTheBlockedSet) {
  ScopedSigmask restore;
  sigset_t set = SigsetOf({SIGUSR1, SIGUSR2, SIGWINCH});
  ASSERT_EQ(sigprocmask(SIG_SETMASK, &set, nullptr), 0);
  sigset_t now;
  ASSERT_EQ(sigprocmask(SIG_SETMASK, nullptr, &now), 0);
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    EXPECT_EQ(sigismember(&now, sig), sigismember(&set, sig)) << "signal " << sig;
  }
}

}  // namespace
}  // namespace snare_syscalls
