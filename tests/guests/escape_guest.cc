// escape_guest ATTEMPT: tries one way of switching snare's interposition off, prints what
// the call returned, then makes a raw getppid() and prints "still-trapped-check: getppid ok".
//
// Before the attempt the guest calls access() on "/nonexistent/snare-escape-attempt/ATTEMPT"
// so that a --trace reader can find where the attempt starts.
//
// Attempts: sigaction_sigsys block_sigsys sigaltstack seccomp_allow ptrace mmap_stub
// munmap_stub mprotect_stub mmap_shared munmap_shared mprotect_shared close_reserved
// dup2_reserved. Natively every attempt succeeds or fails harmlessly and the guest exits 0.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

// snare's reserved addresses and fds (platform/systrap/shared_region.h).
constexpr uintptr_t kStubBase = 0x7e0000000000;
constexpr uintptr_t kSharedBase = 0x7e0100000000;

volatile sig_atomic_t g_own_sigsys_handler_ran = 0;

void OwnSigsysHandler(int, siginfo_t*, void*) { g_own_sigsys_handler_ran = 1; }

// Prints "<what> = <result>" with the errno name when the result is -1.
void Report(const char* what, long result, int err) {
  if (result == -1) {
    const char* name = strerrorname_np(err);
    printf("%s = -1 %s\n", what, name ? name : "E?");
  } else {
    printf("%s = %ld\n", what, result);
  }
}

#define REPORT(what, expr)        \
  do {                            \
    errno = 0;                    \
    long result_ = (long)(expr);  \
    Report(what, result_, errno); \
  } while (0)

void ReportMap(const char* what, void* result, int err) {
  if (result == MAP_FAILED) {
    Report(what, -1, err);
  } else {
    printf("%s = ok\n", what);
  }
}

void Marker(const std::string& attempt) {
  std::string path = "/nonexistent/snare-escape-attempt/" + attempt;
  syscall(SYS_access, path.c_str(), F_OK);
}

// Returns true when the raw getppid() ran normally.
bool StillTrappedCheck() {
  errno = 0;
  long r = syscall(SYS_getppid);
  if (r > 0 && !g_own_sigsys_handler_ran) {
    printf("still-trapped-check: getppid ok\n");
    return true;
  }
  printf("still-trapped-check: getppid FAILED (result %ld, errno %d, own SIGSYS handler ran %d)\n",
         r, errno, static_cast<int>(g_own_sigsys_handler_ran));
  return false;
}

bool SigactionSigsys() {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = OwnSigsysHandler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  REPORT("sigaction(SIGSYS)", sigaction(SIGSYS, &sa, nullptr));
  return StillTrappedCheck();
}

bool BlockSigsys() {
  sigset_t all, old;
  sigfillset(&all);
  REPORT("sigprocmask(SIG_BLOCK, all)", sigprocmask(SIG_BLOCK, &all, &old));
  bool ok = StillTrappedCheck();
  REPORT("sigprocmask(SIG_SETMASK, old)", sigprocmask(SIG_SETMASK, &old, nullptr));
  return ok;
}

bool Sigaltstack() {
  static char stack[64 * 1024];
  stack_t ss;
  ss.ss_sp = stack;
  ss.ss_size = sizeof(stack);
  ss.ss_flags = 0;
  REPORT("sigaltstack(set)", sigaltstack(&ss, nullptr));
  return StillTrappedCheck();
}

bool SeccompAllow() {
  sock_filter allow_all[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  sock_fprog prog;
  prog.len = 1;
  prog.filter = allow_all;
  REPORT("prctl(PR_SET_NO_NEW_PRIVS, 1)", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
  REPORT("prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)",
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0));
  REPORT("seccomp(SECCOMP_SET_MODE_FILTER)",
         syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog));
  return StillTrappedCheck();
}

bool Ptrace() {
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return false;
  }
  if (child == 0) {
    for (;;) pause();
  }
  errno = 0;
  long attached = ptrace(PTRACE_ATTACH, child, nullptr, nullptr);
  Report("ptrace(PTRACE_ATTACH, child)", attached, errno);
  if (attached == 0) {
    int status;
    waitpid(child, &status, __WALL);
    ptrace(PTRACE_DETACH, child, nullptr, nullptr);
  }
  kill(child, SIGKILL);
  while (waitpid(child, nullptr, __WALL) < 0 && errno == EINTR) {
  }
  // Last, so that no signal arrives while this process might have a tracer.
  REPORT("ptrace(PTRACE_TRACEME)", ptrace(PTRACE_TRACEME, 0, nullptr, nullptr));
  return StillTrappedCheck();
}

bool MapFixed(const char* what, uintptr_t addr) {
  errno = 0;
  void* p = mmap(reinterpret_cast<void*>(addr), 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  ReportMap(what, p, errno);
  return StillTrappedCheck();
}

bool Unmap(const char* what, uintptr_t addr) {
  REPORT(what, munmap(reinterpret_cast<void*>(addr), 0x1000));
  return StillTrappedCheck();
}

bool Protect(const char* what, uintptr_t addr) {
  REPORT(what, mprotect(reinterpret_cast<void*>(addr), 0x1000, PROT_READ | PROT_WRITE));
  return StillTrappedCheck();
}

bool CloseReserved() {
  REPORT("close(1020)", close(1020));
  REPORT("close(1021)", close(1021));
  REPORT("close(1022)", close(1022));
  REPORT("close_range(3, ~0U, 0)", syscall(SYS_close_range, 3, ~0U, 0));
  return StillTrappedCheck();
}

bool Dup2Reserved() {
  errno = 0;
  int fd = dup2(1, 1021);
  Report("dup2(1, 1021)", fd, errno);
  bool ok = StillTrappedCheck();
  if (fd == 1021) close(fd);
  return ok;
}

struct Attempt {
  const char* name;
  bool (*run)();
};

const Attempt kAttempts[] = {
    {"sigaction_sigsys", SigactionSigsys},
    {"block_sigsys", BlockSigsys},
    {"sigaltstack", Sigaltstack},
    {"seccomp_allow", SeccompAllow},
    {"ptrace", Ptrace},
    {"mmap_stub", [] { return MapFixed("mmap(0x7e0000000000, MAP_FIXED)", kStubBase); }},
    {"munmap_stub", [] { return Unmap("munmap(0x7e0000000000)", kStubBase); }},
    {"mprotect_stub", [] { return Protect("mprotect(0x7e0000001000)", kStubBase + 0x1000); }},
    {"mmap_shared", [] { return MapFixed("mmap(0x7e0100000000, MAP_FIXED)", kSharedBase); }},
    {"munmap_shared", [] { return Unmap("munmap(0x7e0100000000)", kSharedBase); }},
    {"mprotect_shared", [] { return Protect("mprotect(0x7e0100000000)", kSharedBase); }},
    {"close_reserved", CloseReserved},
    {"dup2_reserved", Dup2Reserved},
};

}  // namespace

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc != 2) {
    fprintf(stderr, "usage: escape_guest ATTEMPT\nattempts:");
    for (const Attempt& a : kAttempts) fprintf(stderr, " %s", a.name);
    fprintf(stderr, "\n");
    return 2;
  }
  for (const Attempt& a : kAttempts) {
    if (strcmp(a.name, argv[1]) != 0) continue;
    printf("attempt: %s\n", a.name);
    Marker(a.name);
    return a.run() ? 0 : 1;
  }
  fprintf(stderr, "escape_guest: unknown attempt %s\n", argv[1]);
  return 2;
}
