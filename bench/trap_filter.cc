#include "bench/trap_filter.h"

#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <ucontext.h>

#include <cerrno>
#include <cstring>

namespace snare::bench {
namespace {

void EmptySigsysHandler(int, siginfo_t*, void* ctx) {
  static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_RAX] = 0;
}

}  // namespace

std::expected<FilterMode, std::string> ParseFilterMode(std::string_view name) {
  if (name == "native") return FilterMode::kNone;
  if (name == "allow") return FilterMode::kAllow;
  if (name == "errno") return FilterMode::kErrno;
  if (name == "sigsys") return FilterMode::kTrap;
  return std::unexpected("unknown filter mode '" + std::string(name) +
                         "' (native, allow, errno, sigsys)");
}

std::expected<void, std::string> InstallTrapFilter(FilterMode mode, const std::vector<int>& nrs) {
  if (mode == FilterMode::kNone) return {};
  if (mode == FilterMode::kTrap) {
    struct sigaction sa = {};
    sa.sa_sigaction = EmptySigsysHandler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    if (sigaction(SIGSYS, &sa, nullptr) != 0) {
      return std::unexpected(std::string("sigaction(SIGSYS): ") + strerror(errno));
    }
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return std::unexpected(std::string("seccomp_init failed"));
  // A realistic filter: the measured rule after a handful of others.
  const int others[] = {SCMP_SYS(kexec_load), SCMP_SYS(reboot),      SCMP_SYS(swapon),
                        SCMP_SYS(swapoff),    SCMP_SYS(init_module), SCMP_SYS(delete_module),
                        SCMP_SYS(acct),       SCMP_SYS(iopl),        SCMP_SYS(ioperm),
                        SCMP_SYS(syslog),     SCMP_SYS(vhangup),     SCMP_SYS(pivot_root),
                        SCMP_SYS(quotactl),   SCMP_SYS(uselib),      SCMP_SYS(personality)};
  int rc = 0;
  for (int nr : others) {
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  }
  uint32_t action = mode == FilterMode::kErrno  ? SCMP_ACT_ERRNO(EPERM)
                    : mode == FilterMode::kTrap ? SCMP_ACT_TRAP
                                                : SCMP_ACT_ALLOW;
  if (action != SCMP_ACT_ALLOW) {
    for (int nr : nrs) {
      if (rc == 0) rc = seccomp_rule_add(ctx, action, nr, 0);
    }
  } else if (rc == 0) {
    // An explicit rule that matches nothing keeps the filter's length comparable.
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(lookup_dcookie), 0);
  }
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return std::unexpected(std::string("loading the seccomp filter: ") + strerror(-rc));
  return {};
}

}  // namespace snare::bench
