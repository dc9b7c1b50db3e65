// The sentry's answer to one trapped syscall: the policy decision, brokered calls performed
// in the sentry's own process, and the --trace line.
#ifndef SNARE_SENTRY_SYSCALL_HANDLER_H_
#define SNARE_SENTRY_SYSCALL_HANDLER_H_

#include <sys/utsname.h>

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "policy/evaluator.h"
#include "policy/verdict.h"
#include "sentry/syscall_stats.h"
#include "sentry/trace_sink.h"

namespace snare::sentry {

// A passthrough whose trace line waits for the stub to report the result.
struct PendingTrace {
  bool active = false;
  platform::SyscallRequest request;
};

class SyscallHandler {
 public:
  // trace may be null (no --trace); a non-empty hostname is the nodename uname answers (a
  // confined guest's UTS namespace has its own).
  SyscallHandler(const policy::PolicyContext& policy, TraceSink* trace,
                 const std::string& hostname = "");

  bool tracing() const { return trace_ != nullptr; }

  // The calls Handle() would pass through unseen: whatever their arguments, and with no
  // trace line to write (empty with --trace). Indexed by number, abi::kSyscallLimit entries.
  std::vector<bool> PassesUnseen() const;

  // The answer for the guest: never kBroker (brokered calls are performed here).
  policy::Verdict Handle(const platform::SyscallRequest& request, PendingTrace* pending);
  // Prints a pending line once its result is known; `final` prints "= ?" if it never will be.
  void FlushPending(const platform::Context& ctx, PendingTrace* pending, bool final);

  // What Handle() answered, per syscall number (abi::kSyscallLimit entries), counted here in
  // the sentry's memory: the authoritative counts when the sentry answers the traps.
  const std::vector<SentryCounters>& counters() const { return counters_; }

 private:
  void Trace(const platform::SyscallRequest& request, bool has_result, int64_t result,
             const char* annotation);

  policy::PolicyContext policy_;
  TraceSink* trace_;
  struct utsname uname_ = {};
  std::vector<SentryCounters> counters_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_SYSCALL_HANDLER_H_
