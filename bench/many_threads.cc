// A guest with N threads alive at once (all wait on a barrier, then exit): what the sentry
// spends per guest thread.
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
pthread_barrier_t g_barrier;

void* Wait(void*) {
  pthread_barrier_wait(&g_barrier);
  return nullptr;
}
}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n < 1 || n > 4000) {
    fprintf(stderr, "usage: many_threads [N: 1..4000]\n");
    return 2;
  }
  pthread_barrier_init(&g_barrier, nullptr, static_cast<unsigned>(n) + 1);
  std::vector<pthread_t> threads(static_cast<size_t>(n));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  for (auto& t : threads) {
    if (pthread_create(&t, &attr, Wait, nullptr) != 0) {
      perror("pthread_create");
      return 1;
    }
  }
  pthread_barrier_wait(&g_barrier);
  for (auto& t : threads) pthread_join(t, nullptr);
  printf("ok %d\n", n);
  return 0;
}
