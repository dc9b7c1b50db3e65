// Calls getppid() N times (argv[1]) through glibc's wrapper, whose `mov $110, %eax; syscall`
// is what --patch rewrites, and prints "ok N" when every call returned the parent's pid, or
// "ERRNO COUNT" for the calls that failed. glibc's getppid() cannot fail, so it returns a
// denied call's -ERRNO as is: that is the errno reported (of the last failed call).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000;
  const pid_t parent = getppid();
  long ok = 0, failed = 0;
  int last = 0;
  for (long i = 0; i < n; ++i) {
    const pid_t p = i == 0 ? parent : getppid();
    if (p > 0 && p == parent) {
      ++ok;
    } else {
      ++failed;
      last = p < 0 ? -p : 0;
    }
  }
  if (failed) {
    printf("%s %ld\n", strerrorname_np(last) ? strerrorname_np(last) : "?", failed);
  } else {
    printf("ok %ld\n", ok);
  }
  return 0;
}
