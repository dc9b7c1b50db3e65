#include "kernel/guest/lab_checks.h"

#include <linux/audit.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "kernel/guest/raw_syscall.h"
#include "kernel/guest/sigqueue_count.h"
#include "kernel/guest/trap_filter.h"
#include "kernel/guest/user_namespace.h"

namespace snare::lab {
namespace {

// SECCOMP_RET_DATA of each trapped syscall; the kernel passes it as si_errno.
constexpr uint16_t kGetppidData = 0x0101;
constexpr uint16_t kGetpgrpData = 0x0202;
// Values the handlers put in RAX; far from anything the real syscalls return.
constexpr long kGetppidMagic = 0x5ec000000000;
constexpr long kGetpgrpMagic = 0x5ec100000000;
constexpr long kFixupMagic = 0x5ecf00000000;
// si_code of a seccomp SIGSYS (asm-generic/siginfo.h; glibc's headers lack it).
constexpr int kSysSeccomp = 1;

std::string Hex(long value) {
  char buf[32];
  snprintf(buf, sizeof(buf), "0x%lx", value);
  return buf;
}

// State shared with the signal handlers. Every check body runs in a fresh child, so
// these start at zero there; the parent never touches them.
volatile long g_delivered = 0;
const char* volatile g_problem = nullptr;  // the first thing a handler found wrong
volatile long g_problem_value = 0;
volatile long g_depth = 0;
volatile long g_max_depth = 0;
char* volatile g_fault_page = nullptr;
volatile int g_variant = 0;  // which way round the fault check's handlers nest
volatile char g_log[32];     // one letter per handler entry (upper case) and exit (lower)
volatile int g_log_len = 0;

void NoteProblem(const char* what, long value) {
  if (g_problem == nullptr) {
    g_problem_value = value;
    g_problem = what;
  }
}

void Log(char c) {
  if (g_log_len < static_cast<int>(sizeof(g_log)) - 1) {
    g_log[g_log_len] = c;
    g_log_len = g_log_len + 1;
  }
}

void ResetLog() { g_log_len = 0; }

std::string LogText() {
  std::string text;
  for (int i = 0; i < g_log_len; ++i) text += g_log[i];
  return text;
}

std::string ProblemText() {
  return std::string(g_problem) + " (value " + Hex(g_problem_value) + ")";
}

bool Blocked(int sig) {
  sigset_t now;
  sigprocmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, sig) == 1;
}

// What is wrong with a SIGSYS for a trapped `nr` raised by snare_lab_raw_syscall0, or
// nullptr when it is all as the seccomp documentation says.
const char* SigsysProblem(const siginfo_t* si, const ucontext_t* uc, long nr, uint16_t data) {
  if (si->si_signo != SIGSYS) return "si_signo is not SIGSYS";
  if (si->si_code != kSysSeccomp) return "si_code is not SYS_SECCOMP";
  if (si->si_syscall != nr) return "si_syscall is not the trapped number";
  if (si->si_arch != AUDIT_ARCH_X86_64) return "si_arch is not AUDIT_ARCH_X86_64";
  if (si->si_errno != data) return "si_errno is not the filter's SECCOMP_RET_DATA";
  const char* call = static_cast<const char*>(si->si_call_addr);
  if (reinterpret_cast<greg_t>(call) != uc->uc_mcontext.gregs[REG_RIP]) {
    return "si_call_addr differs from the ucontext RIP";
  }
  if (call < __executable_start + 2 || call >= etext) return "si_call_addr is outside our text";
  if (static_cast<uint8_t>(call[-2]) != 0x0f || static_cast<uint8_t>(call[-1]) != 0x05) {
    return "the bytes before si_call_addr are not a syscall instruction";
  }
  if (call != snare_lab_raw_syscall0_return) {
    return "si_call_addr is not just after our syscall instruction";
  }
  if (uc->uc_mcontext.gregs[REG_RAX] != nr) return "RAX at the trap is not the syscall number";
  return nullptr;
}

std::string TextRangeNote() {
  return "si_call_addr = RIP = text+" + Hex(snare_lab_raw_syscall0_return - __executable_start) +
         ", just after 0f 05";
}

// --- 1. SIGSYS delivery -------------------------------------------------------------

void DeliveryHandler(int sig, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  if (sig != SIGSYS) NoteProblem("handler ran for another signal", sig);
  if (const char* problem = SigsysProblem(si, uc, __NR_getppid, kGetppidData)) {
    NoteProblem(problem, si->si_syscall);
  }
  uc->uc_mcontext.gregs[REG_RAX] = kGetppidMagic + g_delivered;
  g_delivered = g_delivered + 1;
}

CheckResult SigsysDeliveryBody() {
  constexpr long kTraps = 10000;
  if (auto r = InstallSignalHandler(SIGSYS, DeliveryHandler, 0); !r) return {false, r.error()};
  if (auto r = InstallTrapFilter({{__NR_getppid, kGetppidData}}); !r) return {false, r.error()};
  for (long i = 0; i < kTraps; ++i) {
    long got = snare_lab_raw_syscall0(__NR_getppid);
    if (g_problem != nullptr) {
      return {false, "trap " + std::to_string(i) + ": " + ProblemText()};
    }
    if (got != kGetppidMagic + i) {
      return {false, "trap " + std::to_string(i) + ": getppid returned " + Hex(got) +
                         ", not the handler's " + Hex(kGetppidMagic + i)};
    }
  }
  if (g_delivered != kTraps) {
    return {false,
            std::to_string(g_delivered) + " SIGSYS for " + std::to_string(kTraps) + " traps"};
  }
  return {true, std::to_string(kTraps) +
                    " traps: si_signo SIGSYS, si_code SYS_SECCOMP, si_syscall getppid, si_arch "
                    "X86_64, si_errno = filter data, " +
                    TextRangeNote() + ", RAX set by the handler"};
}

CheckResult CheckSigsysDelivery(const Settings&) {
  return RunInChild(SigsysDeliveryBody, kChildTimeoutS);
}

// --- 2. nested traps ----------------------------------------------------------------

void NestedHandler(int, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  g_depth = g_depth + 1;
  if (g_depth > g_max_depth) g_max_depth = g_depth;
  g_delivered = g_delivered + 1;
  if (si->si_syscall == __NR_getppid) {
    if (const char* p = SigsysProblem(si, uc, __NR_getppid, kGetppidData)) NoteProblem(p, 1);
    Log('P');
    long inner = snare_lab_raw_syscall0(__NR_getpgrp);
    if (inner != kGetpgrpMagic) NoteProblem("the nested getpgrp did not return its value", inner);
    // The outer siginfo must be intact after the nested delivery.
    if (si->si_syscall != __NR_getppid) NoteProblem("outer siginfo changed", si->si_syscall);
    Log('p');
    uc->uc_mcontext.gregs[REG_RAX] = kGetppidMagic;
  } else {
    if (const char* p = SigsysProblem(si, uc, __NR_getpgrp, kGetpgrpData)) NoteProblem(p, 2);
    Log('G');
    if (Blocked(SIGSYS)) NoteProblem("SIGSYS blocked inside an SA_NODEFER handler", 0);
    Log('g');
    uc->uc_mcontext.gregs[REG_RAX] = kGetpgrpMagic;
  }
  g_depth = g_depth - 1;
}

CheckResult NestedTrapsBody() {
  constexpr long kRounds = 1000;
  if (auto r = InstallSignalHandler(SIGSYS, NestedHandler, SA_NODEFER); !r) {
    return {false, r.error()};
  }
  if (auto r = InstallTrapFilter({{__NR_getppid, kGetppidData}, {__NR_getpgrp, kGetpgrpData}});
      !r) {
    return {false, r.error()};
  }
  for (long i = 0; i < kRounds; ++i) {
    ResetLog();
    long got = snare_lab_raw_syscall0(__NR_getppid);
    std::string log = LogText();
    if (g_problem != nullptr) return {false, "round " + std::to_string(i) + ": " + ProblemText()};
    if (got != kGetppidMagic || log != "PGgp") {
      return {false, "round " + std::to_string(i) + ": getppid returned " + Hex(got) +
                         ", handler log '" + log + "' (want 'PGgp')"};
    }
    ResetLog();
    got = snare_lab_raw_syscall0(__NR_getpgrp);
    if (got != kGetpgrpMagic || LogText() != "Gg") {
      return {false, "round " + std::to_string(i) + ": plain getpgrp returned " + Hex(got)};
    }
  }
  if (g_delivered != 3 * kRounds || g_max_depth != 2) {
    return {false, std::to_string(g_delivered) + " SIGSYS delivered (want " +
                       std::to_string(3 * kRounds) + "), deepest nesting " +
                       std::to_string(g_max_depth)};
  }
  return {true, std::to_string(kRounds) +
                    " rounds: trapped getppid whose SA_NODEFER handler traps getpgrp; both "
                    "delivered in order (log PGgp), nesting depth 2, both return values set"};
}

CheckResult CheckNestedTraps(const Settings&) {
  return RunInChild(NestedTrapsBody, kChildTimeoutS);
}

// --- 3. a fault-type forced signal inside the SIGSYS handler, and the reverse ----------

constexpr int kFaultInsideTrap = 1;  // SIGSYS handler touches the PROT_NONE page
constexpr int kTrapInsideFault = 2;  // SIGSEGV handler makes a trapped getppid

void FaultSigsysHandler(int, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  Log('S');
  if (const char* p = SigsysProblem(si, uc, __NR_getppid, kGetppidData)) NoteProblem(p, 3);
  if (!Blocked(SIGSYS)) NoteProblem("SIGSYS not blocked inside its own handler", 0);
  if (g_variant == kFaultInsideTrap) {
    if (Blocked(SIGSEGV)) NoteProblem("SIGSEGV blocked inside the SIGSYS handler", 0);
    long got = snare_lab_touch(g_fault_page);
    if (got != kFixupMagic) NoteProblem("the faulting load was not fixed up", got);
    if (si->si_syscall != __NR_getppid || si->si_code != kSysSeccomp) {
      NoteProblem("SIGSYS siginfo changed by the nested SIGSEGV", si->si_code);
    }
  } else if (!Blocked(SIGSEGV)) {
    NoteProblem("SIGSEGV not blocked in a SIGSYS handler entered from the SIGSEGV handler", 0);
  }
  Log('s');
  uc->uc_mcontext.gregs[REG_RAX] = kGetppidMagic;
}

void FaultSegvHandler(int, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  Log('F');
  if (si->si_signo != SIGSEGV || si->si_code != SEGV_ACCERR) {
    NoteProblem("SIGSEGV siginfo is not SEGV_ACCERR", si->si_code);
  }
  if (si->si_addr != g_fault_page) NoteProblem("si_addr is not the PROT_NONE page", 0);
  if (uc->uc_mcontext.gregs[REG_RIP] != reinterpret_cast<greg_t>(snare_lab_touch_load)) {
    NoteProblem("SIGSEGV at an unexpected RIP", uc->uc_mcontext.gregs[REG_RIP]);
    _exit(3);  // cannot resume safely
  }
  if (!Blocked(SIGSEGV)) NoteProblem("SIGSEGV not blocked inside its own handler", 0);
  if (g_variant == kFaultInsideTrap) {
    if (!Blocked(SIGSYS)) NoteProblem("SIGSYS not blocked in a SIGSEGV handler nested in it", 0);
  } else {
    if (Blocked(SIGSYS)) NoteProblem("SIGSYS blocked inside the SIGSEGV handler", 0);
    long got = snare_lab_raw_syscall0(__NR_getppid);
    if (got != kGetppidMagic) NoteProblem("the trap inside the SIGSEGV handler returned", got);
  }
  Log('f');
  uc->uc_mcontext.gregs[REG_RIP] = reinterpret_cast<greg_t>(snare_lab_touch_resume);
  uc->uc_mcontext.gregs[REG_RAX] = kFixupMagic;
}

bool SameMask(const sigset_t& a, const sigset_t& b) {
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sigismember(&a, sig) != sigismember(&b, sig)) return false;
  }
  return true;
}

bool HandlerStillInstalled(int sig, void (*handler)(int, siginfo_t*, void*)) {
  struct sigaction now = {};
  sigaction(sig, nullptr, &now);
  return (now.sa_flags & SA_SIGINFO) != 0 && now.sa_sigaction == handler;
}

CheckResult ForcedFaultBody() {
  constexpr long kRounds = 1000;
  void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return {false, std::string("mmap: ") + strerror(errno)};
  g_fault_page = static_cast<char*>(page);
  // Default flags: each handler's own signal is blocked while it runs.
  if (auto r = InstallSignalHandler(SIGSYS, FaultSigsysHandler, 0); !r) return {false, r.error()};
  if (auto r = InstallSignalHandler(SIGSEGV, FaultSegvHandler, 0); !r) return {false, r.error()};
  if (auto r = InstallTrapFilter({{__NR_getppid, kGetppidData}}); !r) return {false, r.error()};
  sigset_t before;
  sigprocmask(SIG_BLOCK, nullptr, &before);
  for (long i = 0; i < kRounds; ++i) {
    g_variant = kFaultInsideTrap;
    ResetLog();
    long got = snare_lab_raw_syscall0(__NR_getppid);
    std::string log = LogText();
    if (g_problem != nullptr) {
      return {false, "fault inside trap, round " + std::to_string(i) + ": " + ProblemText()};
    }
    if (got != kGetppidMagic || log != "SFfs") {
      return {false, "fault inside trap, round " + std::to_string(i) + ": getppid returned " +
                         Hex(got) + ", handler log '" + log + "' (want 'SFfs')"};
    }
    g_variant = kTrapInsideFault;
    ResetLog();
    got = snare_lab_touch(g_fault_page);
    log = LogText();
    if (g_problem != nullptr) {
      return {false, "trap inside fault, round " + std::to_string(i) + ": " + ProblemText()};
    }
    if (got != kFixupMagic || log != "FSsf") {
      return {false, "trap inside fault, round " + std::to_string(i) + ": load returned " +
                         Hex(got) + ", handler log '" + log + "' (want 'FSsf')"};
    }
    sigset_t now;
    sigprocmask(SIG_BLOCK, nullptr, &now);
    if (!SameMask(before, now)) {
      return {false,
              "round " + std::to_string(i) + ": signal mask not restored after the handlers"};
    }
  }
  if (!HandlerStillInstalled(SIGSYS, FaultSigsysHandler) ||
      !HandlerStillInstalled(SIGSEGV, FaultSegvHandler)) {
    return {false, "a handler was reset to SIG_DFL by a forced signal"};
  }
  long real = syscall(SYS_getpid);
  if (real != getpid()) return {false, "getpid disagrees with itself after the handlers"};
  return {true, std::to_string(kRounds) +
                    " rounds each: SIGSEGV (SEGV_ACCERR, fixed up) inside the SIGSYS handler "
                    "(log SFfs) and a SIGSYS trap inside the SIGSEGV handler (log FSsf); masks "
                    "restored, both handlers still installed, return values intact"};
}

CheckResult CheckForcedFault(const Settings&) {
  return RunInChild(ForcedFaultBody, kChildTimeoutS);
}

// --- 4. RLIMIT_SIGPENDING -----------------------------------------------------------

void CountingHandler(int, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  if (si->si_code != kSysSeccomp || si->si_syscall != __NR_getppid) {
    NoteProblem("unexpected SIGSYS", si->si_code);
  }
  g_delivered = g_delivered + 1;
  uc->uc_mcontext.gregs[REG_RAX] = kGetppidMagic;
}

// In a child: with RLIMIT_SIGPENDING = 16 and SIGRTMIN blocked, sigqueue() succeeds
// exactly 16 - (already queued) times, then EAGAIN; a seccomp trap is still delivered at
// the limit; the queued signals come back in order and the count returns.
//
// The count is per user and user namespace, so every other process of our user moves
// it (on a busy host, by several at any moment). The child therefore first enters a
// user namespace of its own, where the count is its alone; it does so before lowering
// the rlimit, because a new namespace takes its creator's RLIMIT_SIGPENDING as the cap
// for its parent's level. Without user namespaces it counts in the caller's namespace.
CheckResult SigpendingLimitBody() {
  constexpr long kLimit = 16;
  constexpr int kAttempts = 3;
  auto private_namespace = EnterUserNamespace();
  const std::string where =
      private_namespace ? "in a private user namespace: "
                        : "in the caller's user namespace (" + private_namespace.error() + "): ";
  const int rt = SIGRTMIN;
  sigset_t rt_set;
  sigemptyset(&rt_set);
  sigaddset(&rt_set, rt);
  if (sigprocmask(SIG_BLOCK, &rt_set, nullptr) != 0) {
    return {false, std::string("sigprocmask: ") + strerror(errno)};
  }
  if (auto r = InstallSignalHandler(SIGSYS, CountingHandler, 0); !r) return {false, r.error()};
  if (auto r = InstallTrapFilter({{__NR_getppid, kGetppidData}}); !r) return {false, r.error()};
  rlimit limit = {kLimit, kLimit};
  if (setrlimit(RLIMIT_SIGPENDING, &limit) != 0) {
    return {false, std::string("setrlimit(RLIMIT_SIGPENDING): ") + strerror(errno)};
  }
  std::string history;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    auto before = ReadSigQueueCount();
    if (!before) return {false, before.error()};
    if (before->limit != kLimit) {
      return {false, "SigQ shows the limit as " + std::to_string(before->limit)};
    }
    long expected = std::max(0L, kLimit - before->queued);
    long queued = 0;
    int error = 0;
    for (; queued < 4 * kLimit; ++queued) {
      sigval value = {};
      value.sival_int = static_cast<int>(queued);
      if (sigqueue(getpid(), rt, value) != 0) {
        error = errno;
        break;
      }
    }
    auto at_limit = ReadSigQueueCount();
    bool refused_again = sigqueue(getpid(), rt, sigval{}) != 0 && errno == EAGAIN;
    // A forced signal at the limit: the SIGSYS must still come.
    long delivered = g_delivered;
    long got = snare_lab_raw_syscall0(__NR_getppid);
    bool trapped = got == kGetppidMagic && g_delivered == delivered + 1 && g_problem == nullptr;
    auto after_trap = ReadSigQueueCount();
    long drained = 0;
    bool in_order = true;
    siginfo_t info;
    timespec zero = {0, 0};
    while (sigtimedwait(&rt_set, &info, &zero) == rt) {
      if (info.si_value.sival_int != drained) in_order = false;
      ++drained;
    }
    auto after_drain = ReadSigQueueCount();
    if (!at_limit || !after_trap || !after_drain) return {false, "cannot read SigQ"};
    std::string summary =
        "queued " + std::to_string(before->queued) + " before, " + std::to_string(queued) +
        " sigqueue() succeeded then " + (error ? strerrorname_np(error) : "no error") + " (want " +
        std::to_string(expected) + " then EAGAIN); SigQ " + std::to_string(at_limit->queued) + "/" +
        std::to_string(kLimit) + " at the limit, " + std::to_string(after_trap->queued) +
        " after a trap, " + std::to_string(after_drain->queued) + " after draining " +
        std::to_string(drained);
    if (!trapped) {
      return {false, where + "seccomp trap at the limit: getppid returned " + Hex(got) + " with " +
                         std::to_string(g_delivered - delivered) + " SIGSYS; " + summary};
    }
    if (error != EAGAIN || !refused_again || drained != queued || !in_order) {
      return {false, where + summary + (in_order ? "" : "; queued signals out of order")};
    }
    bool exact = queued == expected && at_limit->queued == kLimit && after_trap->queued == kLimit &&
                 after_drain->queued == before->queued;
    if (exact) {
      return {true, where + summary + "; trap at the limit delivered" +
                        (attempt > 1 ? " (attempt " + std::to_string(attempt) + ": " + history + ")"
                                     : "")};
    }
    // Other processes of the same user move the shared count; a real miscount repeats.
    history += (history.empty() ? "" : " | ") + summary;
  }
  return {false, where + "limit not reached exactly in " + std::to_string(kAttempts) +
                     " attempts: " + history};
}

CheckResult CheckSigpendingLimit(const Settings&) {
  return RunInChild(SigpendingLimitBody, kChildTimeoutS);
}

// --- 5. no leak ---------------------------------------------------------------------

long TrapLoop(long traps) {
  long wrong = 0;
  for (long i = 0; i < traps; ++i) {
    wrong += snare_lab_raw_syscall0(__NR_getppid) != kGetppidMagic;
  }
  return wrong;
}

CheckResult ManyTrapsBody(long traps) {
  if (auto r = InstallSignalHandler(SIGSYS, CountingHandler, SA_NODEFER); !r) {
    return {false, r.error()};
  }
  if (auto r = InstallTrapFilter({{__NR_getppid, kGetppidData}}); !r) return {false, r.error()};
  long wrong = TrapLoop(traps);
  std::string detail = std::to_string(traps) + " traps";
  // A few more one user namespace down: the charge then lands on two levels.
  long nested = std::max(1L, traps / 10);
  long total = traps;
  if (auto r = EnterUserNamespace(); r) {
    wrong += TrapLoop(nested);
    total += nested;
    detail += " + " + std::to_string(nested) + " in a nested user namespace";
  } else {
    detail += " (no nested user namespace: " + r.error() + ")";
  }
  if (wrong != 0 || g_delivered != total || g_problem != nullptr) {
    return {false, detail + ": " + std::to_string(wrong) + " wrong results, " +
                       std::to_string(g_delivered) + " SIGSYS" +
                       (g_problem ? ", " + ProblemText() : "")};
  }
  return {true, detail};
}

CheckResult CheckNoLeak(const Settings& settings) {
  auto before = ReadSettledSigQueueCount();
  if (!before) return {false, before.error()};
  CheckResult traps = RunInChild([&] { return ManyTrapsBody(settings.traps); }, kChildTimeoutS);
  auto after = ReadSettledSigQueueCount();
  if (!after) return {false, after.error()};
  CheckResult limit = RunInChild(SigpendingLimitBody, kChildTimeoutS);
  bool back = after->queued == before->queued;
  std::string detail = traps.detail + "; SigQ " + std::to_string(before->queued) + "/" +
                       std::to_string(before->limit) + " before, " + std::to_string(after->queued) +
                       "/" + std::to_string(after->limit) + " after" + (back ? "" : " (LEAK)") +
                       "; limit afterwards: " + limit.detail;
  return {traps.pass && back && limit.pass, detail};
}

}  // namespace

std::vector<LabCheck> AllChecks() {
  return {
      {"sigsys-delivery", CheckSigsysDelivery},
      {"sigsys-nested", CheckNestedTraps},
      {"forced-fault-nesting", CheckForcedFault},
      {"rlimit-sigpending-exact", CheckSigpendingLimit},
      {"no-leak", CheckNoLeak},
  };
}

}  // namespace snare::lab
