// Holds HOLD threads alive while it starts and joins CHURN short-lived threads, eight at a
// time, each checking getppid() and gettid(); prints "ok HOLD CHURN". With HOLD near the
// sentry's 1,024 thread slots the sentry tests every claimed slot's thread for exit, so a
// slot that a new thread has just claimed, still naming the dead thread before it, must
// not be freed under it (the new thread then waits forever for an answer).
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int kBatch = 8;

pthread_barrier_t g_release;
pid_t g_parent;

void* Hold(void*) {
  pthread_barrier_wait(&g_release);
  return nullptr;
}

// Returns 1 when both calls answer what this thread is, else 0.
void* Churn(void*) {
  const bool ok = getppid() == g_parent && syscall(SYS_gettid) != getpid();
  return reinterpret_cast<void*>(static_cast<uintptr_t>(ok));
}

bool Start(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*)) {
  int err = pthread_create(thread, attr, fn, nullptr);
  if (err != 0) fprintf(stderr, "pthread_create: %s\n", strerror(err));
  return err == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int hold = argc == 3 ? atoi(argv[1]) : -1;
  const int churn = argc == 3 ? atoi(argv[2]) : -1;
  if (hold < 0 || churn <= 0) {
    fprintf(stderr, "usage: thread_churn_guest HOLD CHURN\n");
    return 2;
  }
  g_parent = getppid();
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_barrier_init(&g_release, nullptr, static_cast<unsigned>(hold) + 1);
  std::vector<pthread_t> held(hold);
  for (pthread_t& t : held) {
    if (!Start(&t, &attr, Hold)) return 1;
  }
  int bad = 0;
  for (int done = 0; done < churn; done += kBatch) {
    pthread_t batch[kBatch];
    for (pthread_t& t : batch) {
      if (!Start(&t, &attr, Churn)) return 1;
    }
    for (pthread_t t : batch) {
      void* ok;
      pthread_join(t, &ok);
      bad += ok == nullptr;
    }
  }
  pthread_barrier_wait(&g_release);
  for (pthread_t t : held) pthread_join(t, nullptr);
  if (bad) {
    printf("%d of %d threads saw the wrong parent or thread id\n", bad, churn);
    return 1;
  }
  printf("ok %d %d\n", hold, churn);
  return 0;
}
