// Calls getppid() N times (argv[1], default 1000) through syscall(2) and prints nothing.
// Exits 0 whether or not the calls succeed, so a --deny'd run still finishes normally.
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
  return 0;
}
