// Blocks SIGUSR1 and SIGSYS through glibc's pthread_sigmask() and restores the mask, N times
// (argv[1]), all from one rt_sigprocmask site (which --patch rewrites). Each time SIGUSR1 must
// be blocked and SIGSYS not: a blocked SIGSYS would make the next trapped call kill the guest,
// so the stub leaves it out, whether the call trapped or came through the patched site. A
// SIGUSR1 raised while blocked stays pending until the last restore. Prints "ok N" and
// "delivered 1", or what went wrong.
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

volatile sig_atomic_t g_delivered = 0;

void OnUsr1(int) { g_delivered = g_delivered + 1; }

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000;
  signal(SIGUSR1, OnUsr1);
  sigset_t block, old, now;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigaddset(&block, SIGSYS);
  for (long i = 0; i < n; ++i) {
    if (pthread_sigmask(SIG_BLOCK, &block, &old) != 0) {
      printf("pthread_sigmask(SIG_BLOCK) failed at %ld\n", i);
      return 1;
    }
    pthread_sigmask(SIG_BLOCK, nullptr, &now);
    if (!sigismember(&now, SIGUSR1) || sigismember(&now, SIGSYS)) {
      printf("at %ld: SIGUSR1 %s, SIGSYS %s\n", i, sigismember(&now, SIGUSR1) ? "blocked" : "open",
             sigismember(&now, SIGSYS) ? "blocked" : "open");
      return 1;
    }
    // A call the sentry answers (the default policy traps it): it kills the guest if SIGSYS
    // is blocked.
    if (syscall(SYS_getppid) <= 0) {
      printf("getppid failed at %ld\n", i);
      return 1;
    }
    if (i == n - 1) raise(SIGUSR1);
    if (g_delivered) {
      printf("SIGUSR1 delivered while blocked at %ld\n", i);
      return 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
  printf("ok %ld\ndelivered %d\n", n, static_cast<int>(g_delivered));
  return 0;
}
