// What the sentry does with one trapped syscall, and the pair a policy stores per call.
//
// Freestanding: the stub includes it.
#ifndef SNARE_POLICY_ACTION_H_
#define SNARE_POLICY_ACTION_H_

#include <stdint.h>

namespace snare::policy {

// In the seccomp filter (bpf_compiler.h): passthrough is SECCOMP_RET_ALLOW, broker and trap
// SECCOMP_RET_TRAP, deny SECCOMP_RET_ERRNO | err, kill SECCOMP_RET_KILL_PROCESS and notify
// SECCOMP_RET_USER_NOTIF.
enum class Action : uint8_t {
  kPassthrough,  // the stub executes the original syscall in the guest
  kBroker,       // the sentry performs it in its own process and hands back the result
  kDeny,         // fails with an errno without running
  kKill,         // the guest process is killed by SIGSYS
  // The sentry decides with the arguments the kernel holds (seccomp user notification):
  // the call never reaches the stub, so an evaluated policy treats it as passthrough.
  kNotify,
  // SIGSYS is delivered to the stub. For platform filters (the stub's own seccomp program);
  // guest policies do not use it, and an evaluated policy treats it as passthrough.
  kTrap,
};

struct Disposition {
  Action action = Action::kPassthrough;
  uint16_t err = 0;  // kDeny: the errno the call fails with
};

constexpr bool operator==(const Disposition& a, const Disposition& b) {
  return a.action == b.action && (a.action != Action::kDeny || a.err == b.err);
}

// "passthrough", "broker", "deny", "kill", "notify", "trap".
const char* ActionName(Action action);

}  // namespace snare::policy

#endif  // SNARE_POLICY_ACTION_H_
