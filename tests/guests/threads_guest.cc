// Eight threads each write records to a shared pipe, call getppid() and sleep 1 ms, ten
// times over; the main thread joins them and prints a per-thread summary. The output does
// not depend on scheduling.
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 10;

struct Record {
  uint32_t thread;
  uint32_t round;
};

int g_pipe[2];
pid_t g_parent;

struct ThreadResult {
  int writes = 0;
  int getppid_matches = 0;
  int sleeps = 0;
};

std::array<ThreadResult, kThreads> g_results;

void* Worker(void* arg) {
  auto index = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(arg));
  ThreadResult& result = g_results[index];
  for (uint32_t round = 0; round < kRounds; ++round) {
    Record record{index, round};
    // Writes below PIPE_BUF are atomic, so records never interleave.
    if (write(g_pipe[1], &record, sizeof(record)) == sizeof(record)) ++result.writes;
    if (static_cast<pid_t>(syscall(SYS_getppid)) == g_parent) ++result.getppid_matches;
    timespec ts{0, 1000 * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    ++result.sleeps;
  }
  return nullptr;
}

}  // namespace

int main() {
  if (pipe(g_pipe) != 0) {
    perror("pipe");
    return 1;
  }
  g_parent = getppid();
  std::array<pthread_t, kThreads> threads;
  for (int i = 0; i < kThreads; ++i) {
    int err = pthread_create(&threads[i], nullptr, Worker,
                             reinterpret_cast<void*>(static_cast<uintptr_t>(i)));
    if (err != 0) {
      fprintf(stderr, "pthread_create: %s\n", strerror(err));
      return 1;
    }
  }
  for (pthread_t thread : threads) pthread_join(thread, nullptr);
  close(g_pipe[1]);

  // Every record must arrive exactly once; rounds of one thread arrive in order.
  std::array<int, kThreads> received{};
  std::array<bool, kThreads> in_order;
  in_order.fill(true);
  int total = 0;
  Record record;
  while (read(g_pipe[0], &record, sizeof(record)) == sizeof(record)) {
    ++total;
    if (record.thread >= kThreads) continue;
    if (static_cast<int>(record.round) != received[record.thread]) in_order[record.thread] = false;
    ++received[record.thread];
  }
  for (int i = 0; i < kThreads; ++i) {
    printf("thread %d: writes=%d received=%d in_order=%d getppid_matches=%d sleeps=%d\n", i,
           g_results[i].writes, received[i], in_order[i] ? 1 : 0, g_results[i].getppid_matches,
           g_results[i].sleeps);
  }
  printf("total records=%d\n", total);
  return total == kThreads * kRounds ? 0 : 1;
}
