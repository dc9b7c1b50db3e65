// Starts N threads (argv[1], default 200) that meet at a barrier and exit; prints "ok N".
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

pthread_barrier_t g_barrier;

void* Worker(void*) {
  pthread_barrier_wait(&g_barrier);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n <= 0) {
    fprintf(stderr, "usage: many_threads_guest [N>0]\n");
    return 2;
  }
  pthread_barrier_init(&g_barrier, nullptr, static_cast<unsigned>(n));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 128 * 1024);
  std::vector<pthread_t> threads(n);
  for (int i = 0; i < n; ++i) {
    int err = pthread_create(&threads[i], &attr, Worker, nullptr);
    if (err != 0) {
      fprintf(stderr, "pthread_create %d: %s\n", i, strerror(err));
      return 1;
    }
  }
  for (pthread_t thread : threads) pthread_join(thread, nullptr);
  printf("ok %d\n", n);
  return 0;
}
