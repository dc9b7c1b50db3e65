#include "sentry/syscall_handler.h"

#include <sys/syscall.h>

#include <algorithm>
#include <cstring>

#include "abi/syscall_table.h"
#include "trace/trace_line.h"

namespace snare::sentry {

using policy::Verdict;

SyscallHandler::SyscallHandler(const policy::PolicyContext& policy, TraceSink* trace,
                               const std::string& hostname)
    : policy_(policy), trace_(trace), counters_(abi::kSyscallLimit) {
  ::uname(&uname_);
  if (!hostname.empty()) {
    std::memset(uname_.nodename, 0, sizeof(uname_.nodename));
    std::memcpy(uname_.nodename, hostname.data(),
                std::min(hostname.size(), sizeof(uname_.nodename) - 1));
  }
}

void SyscallHandler::Trace(const platform::SyscallRequest& request, bool has_result, int64_t result,
                           const char* annotation) {
  if (!trace_) return;
  char line[1024];
  trace::TraceCall call = {request.tid,
                           request.nr,
                           request.args,
                           {request.strings[0], request.strings[1]},
                           trace::kPathPrefixBytes};
  size_t n = trace::FormatTraceLine(line, sizeof(line), call, has_result, result, annotation);
  trace_->Write(line, n);
}

std::vector<bool> SyscallHandler::PassesUnseen() const {
  if (trace_) return {};
  std::vector<bool> nrs(abi::kSyscallLimit);
  for (int nr = 0; nr < abi::kSyscallLimit; ++nr)
    nrs[nr] = policy::AlwaysPassesThrough(policy_, nr);
  return nrs;
}

Verdict SyscallHandler::Handle(const platform::SyscallRequest& request, PendingTrace* pending) {
  Verdict verdict = policy::Decide(policy_, request.nr, request.args);
  // The stub does not count numbers beyond the table either.
  if (request.nr < counters_.size()) {
    SentryCounters& count = counters_[request.nr];
    ++count.calls;
    count.denied += verdict.kind == Verdict::kReturn && verdict.value < 0;
    count.killed += verdict.kind == Verdict::kKill;
  }
  Verdict reply;
  switch (verdict.kind) {
    case Verdict::kPassthrough:
      if (request.nr == SYS_exit || request.nr == SYS_exit_group) {
        Trace(request, false, 0, nullptr);
      } else if (trace_) {
        pending->active = true;
        pending->request = request;
      }
      return verdict;
    case Verdict::kKill:
      Trace(request, false, 0, "killed");
      return verdict;
    case Verdict::kBroker:
      // uname: answered from the sentry's own view of the host.
      reply.kind = Verdict::kReturn;
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
  Trace(request, true, verdict.value, verdict.value < 0 ? "denied" : "emulated");
  return verdict;
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

}  // namespace snare::sentry
