#include "sentry/syscall_handler.h"

#include <sys/syscall.h>

#include <cstring>

#include "sentry/trace_line.h"

namespace snare {

SyscallHandler::SyscallHandler(const PolicyContext& policy, TraceSink* trace)
    : policy_(policy), trace_(trace) {
  ::uname(&uname_);
}

void SyscallHandler::Trace(const platform::SyscallRequest& request, bool has_result, int64_t result,
                           const char* annotation) {
  if (!trace_) return;
  char line[1024];
  TraceCall call = {request.tid,
                    request.nr,
                    request.args,
                    {request.strings[0], request.strings[1]},
                    systrap::kTraceString};
  size_t n = FormatTraceLine(line, sizeof(line), call, has_result, result, annotation);
  trace_->Write(line, n);
}

platform::Reply SyscallHandler::Handle(const platform::SyscallRequest& request,
                                       PendingTrace* pending) {
  Verdict verdict = Decide(policy_, request.nr, request.args);
  platform::Reply reply;
  switch (verdict.kind) {
    case Verdict::kPassthrough:
      reply.kind = platform::Reply::kPassthrough;
      if (request.nr == SYS_exit || request.nr == SYS_exit_group) {
        Trace(request, false, 0, nullptr);
      } else if (trace_) {
        pending->active = true;
        pending->request = request;
      }
      return reply;
    case Verdict::kKill:
      reply.kind = platform::Reply::kKill;
      Trace(request, false, 0, "killed");
      return reply;
    case Verdict::kBroker:
      // uname: answered from the sentry's own view of the host.
      reply.kind = platform::Reply::kReturn;
      reply.value = 0;
      reply.copyout_addr = request.args[0];
      reply.copyout_len = sizeof(uname_);
      reply.copyout = reinterpret_cast<const uint8_t*>(&uname_);
      if (!request.args[0]) {
        reply.value = -EFAULT;
        reply.copyout_len = 0;
      }
      Trace(request, true, reply.value, "brokered");
      return reply;
    case Verdict::kReturn:
      break;
  }
  // The reply's copy-out bytes must outlive this call: the Context copies them before
  // returning to the guest, and Handle is not re-entered in between.
  static thread_local uint8_t copyout[sizeof(verdict.copyout)];
  std::memcpy(copyout, verdict.copyout, sizeof(copyout));
  reply.kind = platform::Reply::kReturn;
  reply.value = verdict.value;
  reply.copyout_addr = verdict.copyout_addr;
  reply.copyout_len = verdict.copyout_len;
  reply.copyout = copyout;
  Trace(request, true, verdict.value, verdict.value < 0 ? "denied" : "emulated");
  return reply;
}

void SyscallHandler::FlushPending(const platform::Context& ctx, PendingTrace* pending, bool final) {
  if (!pending->active) return;
  int64_t result;
  if (ctx.Completed(pending->request.depth, pending->request.seq, &result)) {
    Trace(pending->request, true, result, nullptr);
    pending->active = false;
  } else if (final) {
    Trace(pending->request, false, 0, nullptr);
    pending->active = false;
  }
}

}  // namespace snare
