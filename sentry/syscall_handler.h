// The sentry's answer to one trapped syscall: the policy decision, brokered calls performed
// in the sentry's own process, and the --trace line.
#ifndef SNARE_SENTRY_SYSCALL_HANDLER_H_
#define SNARE_SENTRY_SYSCALL_HANDLER_H_

#include <sys/utsname.h>

#include <cstdint>

#include "platform/platform.h"
#include "policy/evaluator.h"
#include "policy/verdict.h"
#include "sentry/trace_sink.h"

namespace snare::sentry {

// A passthrough whose trace line waits for the stub to report the result.
struct PendingTrace {
  bool active = false;
  platform::SyscallRequest request;
};

class SyscallHandler {
 public:
  // trace may be null (no --trace).
  SyscallHandler(const policy::PolicyContext& policy, TraceSink* trace);

  bool tracing() const { return trace_ != nullptr; }

  // The answer for the guest: never kBroker (brokered calls are performed here).
  policy::Verdict Handle(const platform::SyscallRequest& request, PendingTrace* pending);
  // Prints a pending line once its result is known; `final` prints "= ?" if it never will be.
  void FlushPending(const platform::Context& ctx, PendingTrace* pending, bool final);

 private:
  void Trace(const platform::SyscallRequest& request, bool has_result, int64_t result,
             const char* annotation);

  policy::PolicyContext policy_;
  TraceSink* trace_;
  struct utsname uname_ = {};
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_SYSCALL_HANDLER_H_
