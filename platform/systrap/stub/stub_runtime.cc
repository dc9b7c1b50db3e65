#include "platform/systrap/stub/stub_runtime.h"

#include <asm/unistd.h>

#include "abi/errno_name.h"
#include "platform/systrap/stub/raw_syscall.h"

extern "C" {

// The compiler may emit calls to these for struct copies; keep them out of the loop
// idiom recognizer so they do not call themselves.
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void* memcpy(void* dst,
                                                                           const void* src,
                                                                           size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  auto* s = static_cast<const unsigned char*>(src);
  while (n--) *d++ = *s++;
  return dst;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) void* memmove(void* dst,
                                                                            const void* src,
                                                                            size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  auto* s = static_cast<const unsigned char*>(src);
  if (d < s) {
    while (n--) *d++ = *s++;
  } else {
    while (n--) d[n] = s[n];
  }
  return dst;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) void* memset(void* dst, int c,
                                                                           size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  while (n--) *d++ = static_cast<unsigned char>(c);
  return dst;
}

int memcmp(const void* a, const void* b, size_t n) {
  auto* x = static_cast<const unsigned char*>(a);
  auto* y = static_cast<const unsigned char*>(b);
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return x[i] - y[i];
  }
  return 0;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) size_t strlen(const char* s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}

// Boost.Context's make_fcontext calls _exit when a fiber function returns; ours never do.
[[noreturn]] void _exit(int status) {
  for (;;) snare::stub::Sys(__NR_exit_group, status);
}

}  // extern "C"

namespace snare::stub {

int StrCmp(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return static_cast<unsigned char>(*a) - static_cast<unsigned char>(*b);
}

bool StartsWith(const char* s, const char* prefix) {
  while (*prefix) {
    if (*s++ != *prefix++) return false;
  }
  return true;
}

int64_t ParseDec(const char* s) {
  if (!s || !*s) return -1;
  int64_t v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9' || v > (int64_t{1} << 40)) return -1;
    v = v * 10 + (*s - '0');
  }
  return v;
}

void WriteAll(int fd, const char* data, size_t n) {
  while (n) {
    long r = Sys(__NR_write, fd, P(data), static_cast<long>(n));
    if (r == -4 /* EINTR */) continue;
    if (r <= 0) return;
    data += r;
    n -= static_cast<size_t>(r);
  }
}

void Fatal(const char* msg, const char* detail, long err, int status) {
  char buf[512];
  LineWriter w(buf, sizeof(buf) - 1);
  w.Str("snare-stub: ").Str(msg);
  if (detail) w.Str(": ").Str(detail);
  if (err < 0) w.Str(": ").Str(abi::ErrnoDescription(static_cast<int>(-err)));
  w.Char('\n');
  WriteAll(2, w.data(), w.size());
  for (;;) Sys(__NR_exit_group, status);
}

}  // namespace snare::stub
