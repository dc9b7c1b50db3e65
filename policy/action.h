// What the sentry does with one trapped syscall, and the pair a policy stores per call.
//
// Freestanding: the stub includes it.
#ifndef SNARE_POLICY_ACTION_H_
#define SNARE_POLICY_ACTION_H_

#include <stdint.h>

namespace snare::policy {

enum class Action : uint8_t {
  kPassthrough,  // the stub executes the original syscall in the guest
  kBroker,       // the sentry performs it in its own process and hands back the result
  kDeny,         // fails with an errno without running
  kKill,         // the guest process is killed by SIGSYS
};

struct Disposition {
  Action action = Action::kPassthrough;
  uint16_t err = 0;  // kDeny: the errno the call fails with
};

constexpr bool operator==(const Disposition& a, const Disposition& b) {
  return a.action == b.action && (a.action != Action::kDeny || a.err == b.err);
}

// "passthrough", "broker", "deny", "kill".
const char* ActionName(Action action);

}  // namespace snare::policy

#endif  // SNARE_POLICY_ACTION_H_
