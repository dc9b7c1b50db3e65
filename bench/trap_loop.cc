// A guest for the cost ladder: makes one syscall in a tight loop and prints the mean cost.
//
//   trap_loop MODE CALLS
//   MODE: native   plain syscall(SYS_getppid)
//         allow    through a seccomp filter (libseccomp, 16 rules) that allows it
//         errno    through a filter that fails it with ERRNO
//         sigsys   SECCOMP_RET_TRAP -> SIGSYS -> empty handler sets the result (signal floor)
// Prints "ns_per_call <mean over CALLS>" on stdout.
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void OnSigsys(int, siginfo_t*, void* ctx) {
  static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_RAX] = 1;
}

// A realistic filter: the rule we care about after a handful of others.
bool InstallFilter(uint32_t action_for_getppid) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return false;
  const int others[] = {SCMP_SYS(kexec_load), SCMP_SYS(reboot),      SCMP_SYS(swapon),
                        SCMP_SYS(swapoff),    SCMP_SYS(init_module), SCMP_SYS(delete_module),
                        SCMP_SYS(acct),       SCMP_SYS(iopl),        SCMP_SYS(ioperm),
                        SCMP_SYS(syslog),     SCMP_SYS(vhangup),     SCMP_SYS(pivot_root),
                        SCMP_SYS(quotactl),   SCMP_SYS(uselib),      SCMP_SYS(personality)};
  bool ok = true;
  for (int nr : others) ok = ok && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) == 0;
  if (action_for_getppid != SCMP_ACT_ALLOW) {
    ok = ok && seccomp_rule_add(ctx, action_for_getppid, SCMP_SYS(getppid), 0) == 0;
  }
  ok = ok && seccomp_load(ctx) == 0;
  seccomp_release(ctx);
  return ok;
}

double NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: trap_loop native|allow|errno|sigsys CALLS\n");
    return 2;
  }
  std::string mode = argv[1];
  long calls = atol(argv[2]);
  if (calls <= 0) {
    fprintf(stderr, "trap_loop: CALLS must be a positive number, not '%s'\n", argv[2]);
    return 2;
  }
  bool ok = true;
  if (mode == "allow") {
    ok = InstallFilter(SCMP_ACT_ALLOW);
  } else if (mode == "errno") {
    ok = InstallFilter(SCMP_ACT_ERRNO(EPERM));
  } else if (mode == "sigsys") {
    struct sigaction sa = {};
    sa.sa_sigaction = OnSigsys;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    ok = sigaction(SIGSYS, &sa, nullptr) == 0 && InstallFilter(SCMP_ACT_TRAP);
  } else if (mode != "native") {
    fprintf(stderr, "trap_loop: unknown mode '%s' (native, allow, errno, sigsys)\n", argv[1]);
    return 2;
  }
  if (!ok) {
    fprintf(stderr, "trap_loop: installing the %s filter failed: %s\n", argv[1], strerror(errno));
    return 1;
  }
  for (long i = 0; i < calls / 10 + 1; ++i) syscall(SYS_getppid);  // warm up
  double t0 = NowNs();
  for (long i = 0; i < calls; ++i) syscall(SYS_getppid);
  double t1 = NowNs();
  printf("ns_per_call %.1f\n", (t1 - t0) / static_cast<double>(calls));
  return 0;
}
