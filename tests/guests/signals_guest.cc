// Signal delivery and syscall restarting, in four cases with deterministic output:
//   A: alarm() interrupts a blocking pipe read; SIGALRM without SA_RESTART -> EINTR.
//   B: the same with SA_RESTART: the read restarts and completes once a second thread
//      writes (after the handler has run).
//   C: a forked child blocked in pause() is killed with SIGTERM; waitpid() reports it and
//      the SIGCHLD handler ran.
//   D: raise(SIGINT) runs the SIGINT handler before raise() returns.
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

volatile sig_atomic_t g_sigint_count = 0;
volatile sig_atomic_t g_sigalrm_count = 0;
volatile sig_atomic_t g_sigchld_count = 0;

void OnSigint(int) { g_sigint_count = g_sigint_count + 1; }
void OnSigalrm(int) { g_sigalrm_count = g_sigalrm_count + 1; }
void OnSigchld(int) { g_sigchld_count = g_sigchld_count + 1; }

void Install(int sig, void (*handler)(int), int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig, &sa, nullptr) != 0) {
    perror("sigaction");
    exit(1);
  }
}

const char* ErrnoName(int err) {
  switch (err) {
    case 0:
      return "0";
    case EINTR:
      return "EINTR";
    case EAGAIN:
      return "EAGAIN";
    case EBADF:
      return "EBADF";
    default:
      return "other";
  }
}

void SleepMs(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000 * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void CaseA() {
  Install(SIGALRM, OnSigalrm, 0);
  int fds[2];
  if (pipe(fds) != 0) exit(1);
  int before = g_sigalrm_count;
  alarm(1);
  char buf[16];
  errno = 0;
  ssize_t n = read(fds[0], buf, sizeof(buf));
  int err = errno;
  printf("A: read=%zd errno=%s alarm_handled=%d\n", n, ErrnoName(n < 0 ? err : 0),
         g_sigalrm_count - before);
  close(fds[0]);
  close(fds[1]);
}

struct WriterArgs {
  int fd;
  int alarm_count_before;
};

void* Writer(void* arg) {
  auto* args = static_cast<WriterArgs*>(arg);
  // Wait (up to 10 s) until the alarm has interrupted the reader, then give the read time
  // to restart before writing.
  for (int i = 0; i < 10000 && g_sigalrm_count == args->alarm_count_before; ++i) SleepMs(1);
  SleepMs(100);
  if (write(args->fd, "hello", 5) != 5) perror("write");
  return nullptr;
}

void CaseB() {
  Install(SIGALRM, OnSigalrm, SA_RESTART);
  int fds[2];
  if (pipe(fds) != 0) exit(1);
  WriterArgs args{fds[1], g_sigalrm_count};
  // The writer blocks SIGALRM (inherited mask), so the alarm is delivered to the reader.
  sigset_t alrm, old;
  sigemptyset(&alrm);
  sigaddset(&alrm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alrm, &old);
  pthread_t writer;
  if (pthread_create(&writer, nullptr, Writer, &args) != 0) exit(1);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  alarm(1);
  char buf[16] = {};
  errno = 0;
  ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
  int err = errno;
  pthread_join(writer, nullptr);
  printf("B: read=%zd errno=%s data=%s alarm_handled=%d\n", n, ErrnoName(n < 0 ? err : 0),
         n > 0 ? buf : "", g_sigalrm_count - args.alarm_count_before);
  close(fds[0]);
  close(fds[1]);
}

void CaseC() {
  Install(SIGCHLD, OnSigchld, SA_RESTART);
  int ready[2];
  if (pipe(ready) != 0) exit(1);
  int before = g_sigchld_count;
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    exit(1);
  }
  if (child == 0) {
    close(ready[0]);
    if (write(ready[1], "r", 1) != 1) _exit(3);
    for (;;) pause();
  }
  close(ready[1]);
  char c;
  ssize_t n = read(ready[0], &c, 1);
  close(ready[0]);
  int kill_result = kill(child, SIGTERM);
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(child, &status, 0)) < 0 && errno == EINTR) {
  }
  // The SIGCHLD is normally delivered before waitpid() returns; allow a little slack.
  for (int i = 0; i < 1000 && g_sigchld_count == before; ++i) SleepMs(1);
  printf(
      "C: child_ready=%d kill=%d waitpid_matches=%d WIFSIGNALED=%d signal=%s sigchld_handled=%d\n",
      n == 1 ? 1 : 0, kill_result, waited == child ? 1 : 0, WIFSIGNALED(status) ? 1 : 0,
      WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? "SIGTERM" : "other",
      g_sigchld_count - before > 0 ? 1 : 0);
}

void CaseD() {
  Install(SIGINT, OnSigint, 0);
  int before = g_sigint_count;
  int r = raise(SIGINT);
  printf("D: raise=%d sigint_handled=%d\n", r, g_sigint_count - before);
}

}  // namespace

int main() {
  // Line-buffer so the order of lines never depends on the buffering mode.
  setvbuf(stdout, nullptr, _IOLBF, 0);
  Install(SIGINT, OnSigint, 0);
  Install(SIGALRM, OnSigalrm, 0);
  Install(SIGCHLD, OnSigchld, SA_RESTART);
  printf("handlers installed: SIGINT SIGALRM SIGCHLD\n");
  CaseA();
  CaseB();
  CaseC();
  CaseD();
  printf("done\n");
  return 0;
}
