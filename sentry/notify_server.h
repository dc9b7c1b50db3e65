// The sentry's side of the seccomp user-notification path (`--notify=NAME`): the kernel
// stops the guest thread at a notified call and hands the sentry the call's number and
// arguments, which the guest cannot change afterwards. The sentry decides with the policy,
// traces the call and counts it (authoritative: nothing here comes from guest memory but
// the path prefixes copied for the trace line), then lets the kernel run it
// (SECCOMP_USER_NOTIF_FLAG_CONTINUE), answers an errno, or kills the guest.
//
// One thread of its own, so a notified call never waits behind the SIGSYS dispatcher.
#ifndef SNARE_SENTRY_NOTIFY_SERVER_H_
#define SNARE_SENTRY_NOTIFY_SERVER_H_

#include <linux/seccomp.h>
#include <sys/types.h>

#include <atomic>
#include <thread>
#include <unordered_map>
#include <vector>

#include "policy/evaluator.h"
#include "sentry/syscall_stats.h"
#include "sentry/trace_sink.h"

namespace snare::sentry {

class NotifyServer {
 public:
  // Takes ownership of listener. trace may be null.
  NotifyServer(int listener, const policy::PolicyContext& policy, TraceSink* trace);
  ~NotifyServer();
  NotifyServer(const NotifyServer&) = delete;
  NotifyServer& operator=(const NotifyServer&) = delete;

  // Ends the thread (once every guest process is gone the listener hangs up by itself).
  void Stop();
  // Per syscall number (abi::kSyscallLimit entries); read after Stop().
  const std::vector<SentryCounters>& counters() const { return counters_; }

 private:
  void Run();
  // Fills resp; true when the guest is to be killed.
  bool Answer(const struct seccomp_notif& n, struct seccomp_notif_resp* resp);
  // The thread id as the guest sees it (its pid namespace), for the trace line.
  int32_t GuestTid(pid_t host_tid);
  void CopyPath(pid_t pid, uint64_t addr, char* out, size_t cap);

  int listener_;
  int stop_fd_;
  policy::PolicyContext policy_;
  TraceSink* trace_;
  std::vector<SentryCounters> counters_;
  std::unordered_map<pid_t, int32_t> guest_tids_;
  std::thread thread_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_NOTIFY_SERVER_H_
