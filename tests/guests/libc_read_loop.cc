// Reads one byte of /dev/zero N times (argv[1]) through glibc's read(), whose fast path for a
// process of one thread (`cmpb $0, __libc_single_threaded; je ...; xor %eax, %eax; syscall`)
// the patcher enters at its `cmpb`, and whose path for a process that has had a second thread
// (four moves, `xor %eax, %eax; syscall`) at its first move. MODE (argv[2]) "alone": the reads
// run with no other thread, then a second thread starts and makes N more (glibc now takes its
// multi-threaded path, through the `je` of the patched fast path's trampoline); "crowded": a
// second thread is alive, blocked, through all N (the fast path never runs). Prints "ok COUNT"
// when every read returned its byte, else "bad COUNT".
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

int g_zero = -1;
long g_reads = 0;

long ReadMany(long n) {
  long bad = 0;
  for (long i = 0; i < n; ++i) {
    char byte = 1;
    if (read(g_zero, &byte, 1) != 1 || byte != 0) ++bad;
  }
  return bad;
}

void* Reader(void*) { return reinterpret_cast<void*>(ReadMany(g_reads)); }

int g_hold[2];
void* Holder(void*) {
  char c;
  (void)!read(g_hold[0], &c, 1);  // blocked until main is done
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  g_reads = argc > 1 ? atol(argv[1]) : 1000;
  const bool crowded = argc > 2 && strcmp(argv[2], "crowded") == 0;
  g_zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
  if (g_zero < 0 || pipe(g_hold) != 0) return 2;
  long bad = 0, total = g_reads;
  pthread_t other;
  if (crowded) {
    pthread_create(&other, nullptr, Holder, nullptr);
    bad += ReadMany(g_reads);
    (void)!write(g_hold[1], "x", 1);
    pthread_join(other, nullptr);
  } else {
    bad += ReadMany(g_reads);
    void* more = nullptr;
    pthread_create(&other, nullptr, Reader, nullptr);
    pthread_join(other, &more);
    bad += reinterpret_cast<long>(more);
    total += g_reads;
  }
  printf("%s %ld\n", bad ? "bad" : "ok", bad ? bad : total);
  return bad ? 1 : 0;
}
