// Sixteen getppid sites, `mov $110, %eax; syscall; ret`, the `mov` at each offset 0..15 of an
// aligned 16-byte block, called by THREADS threads (argv[2]) N times each (argv[1]) at once:
// the sites a patcher must rewrite while other threads run them. Prints "ok" when every call
// returned the parent's pid (else each bad result and its site), then "patched MASK": bit k
// set when site k's first byte is now a `jmp` (0xe9), read from the guest's own text; and, when
// site 15 is patched, "torn getppid" when its `syscall` entered with the jump's rel32 in %eax
// (a thread caught mid-patch) still made the site's call (else "torn RESULT").
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#define SITE(k)             \
  ".p2align 4\n"            \
  ".globl aligned_site_" #k \
  "\n"                      \
  "aligned_site_" #k        \
  ":\n"                     \
  ".skip " #k               \
  ", 0x90\n"                \
  "mov $110, %eax\n"        \
  "syscall\n"               \
  "ret\n"

// Each function starts on a 16-byte boundary; its `mov` sits k bytes in (k one-byte nops). The
// 256 bytes start on a 256-byte boundary: no site's `mov` and `syscall` lie on two pages.
__asm__(".text\n.p2align 8\n" SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
            SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15));

extern "C" {
#define DECLARE(k) long aligned_site_##k();
DECLARE(0)
DECLARE(1)
DECLARE(2)
DECLARE(3) DECLARE(4) DECLARE(5) DECLARE(6) DECLARE(7) DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11)
    DECLARE(12) DECLARE(13) DECLARE(14) DECLARE(15)
}

namespace {

long (*const kSites[16])() = {
    aligned_site_0,  aligned_site_1,  aligned_site_2,  aligned_site_3,
    aligned_site_4,  aligned_site_5,  aligned_site_6,  aligned_site_7,
    aligned_site_8,  aligned_site_9,  aligned_site_10, aligned_site_11,
    aligned_site_12, aligned_site_13, aligned_site_14, aligned_site_15,
};

long g_calls = 0;
long g_parent = 0;
std::atomic<long> g_bad{0};
std::atomic<int> g_ready{0};
int g_threads = 1;

void* Run(void*) {
  // Start together, so that the sites are patched while other threads call them.
  g_ready.fetch_add(1);
  while (g_ready.load() < g_threads) {
  }
  for (long i = 0; i < g_calls; ++i) {
    for (int k = 0; k < 16; ++k) {
      const long r = kSites[k]();
      if (r != g_parent && g_bad.fetch_add(1) < 10) {
        fprintf(stderr, "site %d returned %ld, not %ld\n", k, r, g_parent);
      }
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  g_calls = argc > 1 ? atol(argv[1]) : 1000;
  g_threads = argc > 2 ? atoi(argv[2]) : 4;
  if (g_threads < 1 || g_threads > 64) g_threads = 4;
  g_parent = getppid();
  pthread_t threads[64];
  for (int t = 1; t < g_threads; ++t) pthread_create(&threads[t], nullptr, Run, nullptr);
  Run(nullptr);
  for (int t = 1; t < g_threads; ++t) pthread_join(threads[t], nullptr);
  if (g_bad.load()) {
    printf("%ld bad results\n", g_bad.load());
    return 1;
  }
  unsigned mask = 0;
  for (int k = 0; k < 16; ++k) {
    const unsigned char* mov = reinterpret_cast<const unsigned char*>(kSites[k]) + k;
    if (*mov == 0xe9) mask |= 1u << k;
  }
  printf("ok\npatched %#x\n", mask);
  // A thread the patcher caught between its two writes at site 15 (the `mov`'s old opcode
  // fetched with the new immediate, the jump's rel32) reaches the `syscall` with the rel32 in
  // %eax. Done here on purpose, by jumping to the `syscall` itself: the call must still be the
  // site's own getppid.
  if (mask & 0x8000) {
    const unsigned char* mov = reinterpret_cast<const unsigned char*>(kSites[15]) + 15;
    unsigned rel32;
    __builtin_memcpy(&rel32, mov + 1, 4);
    long r;
    __asm__ volatile("call *%[at]"
                     : "=a"(r)
                     : [at] "r"(mov + 5), "a"(static_cast<long>(rel32))
                     : "rcx", "r11", "memory");
    printf("torn %s\n", r == g_parent ? "getppid" : std::to_string(r).c_str());
  }
  return 0;
}
