// progress_guest FILE SECONDS: four threads append one byte to FILE per loop and call
// getppid(), and one of them forks a child that appends a byte too, for SECONDS; then it
// prints "done" and exits with status 3. FILE's size is the guest's progress: a test that
// stops or kills the sentry reads it to see whether the guest went on making syscalls.
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kThreads = 4;
int g_fd = -1;
double g_end = 0;

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void* Work(void* arg) {
  const bool forks = arg != nullptr;
  for (long i = 0; Now() < g_end; ++i) {
    if (write(g_fd, "x", 1) != 1) _exit(10);
    syscall(SYS_getppid);
    if (forks && i % 16 == 0) {
      const pid_t child = fork();
      if (child == 0) _exit(write(g_fd, "c", 1) == 1 ? 0 : 11);
      if (child < 0 || waitpid(child, nullptr, 0) != child) _exit(12);
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: progress_guest FILE SECONDS\n");
    return 2;
  }
  g_fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (g_fd < 0) {
    perror(argv[1]);
    return 2;
  }
  g_end = Now() + atof(argv[2]);
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    pthread_create(&threads[i], nullptr, Work, i == 0 ? &g_fd : nullptr);
  }
  for (pthread_t t : threads) pthread_join(t, nullptr);
  printf("done\n");
  return 3;
}
