// The decision for one trapped syscall, as the platform carries it back to the guest.
//
// Freestanding: the stub includes it.
#ifndef SNARE_POLICY_VERDICT_H_
#define SNARE_POLICY_VERDICT_H_

#include <stdint.h>

namespace snare::policy {

struct Verdict {
  enum Kind : uint8_t {
    kPassthrough,  // the stub executes the call
    kReturn,       // the call returns `value` (-errno on failure) without running
    kKill,         // the guest process dies by SIGSYS
    kBroker,       // the sentry must perform the call and answer with kReturn
  };
  Kind kind = kPassthrough;
  int64_t value = 0;
  // kReturn: copyout_len bytes from `copyout` are stored at copyout_addr in the guest first.
  uint64_t copyout_addr = 0;
  uint32_t copyout_len = 0;
  const uint8_t* copyout = nullptr;
};

}  // namespace snare::policy

#endif  // SNARE_POLICY_VERDICT_H_
