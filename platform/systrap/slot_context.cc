#include "platform/systrap/slot_context.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

namespace snare::systrap {

static_assert(kMaxDepth == platform::kMaxTrapDepth);

namespace {
template <typename T>
T Load(const T& v) {
  return __atomic_load_n(&v, __ATOMIC_ACQUIRE);
}
}  // namespace

SlotContext::SlotContext(Slot* slot, std::function<bool()> yield, bool trace)
    : slot_(slot), generation_(Load(slot->generation)), yield_(std::move(yield)), trace_(trace) {}

bool SlotContext::Gone() const {
  return Load(slot_->state) == kSlotFree || Load(slot_->generation) != generation_;
}

void SlotContext::Answer(const policy::Verdict& reply) {
  Frame& f = slot_->frames[answering_depth_];
  uint32_t action = kActionKill;  // kKill, and kBroker, which the sentry never sends
  bool copyout = false;
  if (reply.kind == policy::Verdict::kPassthrough) {
    action = kActionPassthrough;
  } else if (reply.kind == policy::Verdict::kReturn) {
    action = kActionReturn;
    const uint32_t len = reply.copyout_len <= kCopyoutMax ? reply.copyout_len : 0;
    if (len && reply.copyout) {
      std::memcpy(f.copyout, reply.copyout, len);
      f.copyout_addr = reply.copyout_addr;
      f.copyout_len = len;
      copyout = true;
    }
  }
  // A passthrough has no value: a store here would take the line from the spinning stub
  // once more before the swap.
  if (action != kActionPassthrough) f.value = reply.value;
  WriteReply(f, Load(f.state), action, copyout);
}

void WriteReply(Frame& f, uint32_t request, uint32_t action, bool copyout) {
  // One locked swap: the reply is visible before we look whether the stub sleeps. The
  // request's CPU stays in the word: the idle sentry reads where the thread runs from it.
  const uint32_t cpu = request & ~((1u << kCpuShift) - 1);
  const uint32_t old =
      __atomic_exchange_n(&f.state, ReplyState(action, copyout) | cpu, __ATOMIC_SEQ_CST);
  if (old & kStateStubWaiting) syscall(SYS_futex, &f.state, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

void SlotContext::Copy(uint32_t depth, platform::SyscallRequest* out) {
  const Frame& f = slot_->frames[depth];
  out->depth = depth;
  out->tid = slot_->tid;
  out->nr = f.nr;
  std::memcpy(out->args, f.args, sizeof(out->args));
  if (trace_) {
    out->seq = f.seq;
    for (int i = 0; i < 2; ++i) {
      std::memcpy(out->strings[i], f.strings[i], kTraceString);
      out->strings[i][kTraceString - 1] = 0;
    }
  }
  answering_depth_ = depth;
}

bool SlotContext::TakeRequest(platform::SyscallRequest* out) {
  // The deepest request first: an outer one waits behind a guest signal handler. Requests
  // above depth 0 raise `pending`; a guest that raises it falsely costs itself a scan, one
  // that fails to only keeps its own request waiting.
  if (scan_nested_ ||
      (Load(slot_->pending) && __atomic_exchange_n(&slot_->pending, 0u, __ATOMIC_ACQ_REL))) {
    scan_nested_ = false;
    for (uint32_t d = kMaxDepth - 1; d >= 1; --d) {
      if (PhaseOf(Load(slot_->frames[d].state)) != kFrameRequest) continue;
      scan_nested_ = true;
      Copy(d, out);
      return true;
    }
  }
  if (PhaseOf(Load(slot_->frames[0].state)) != kFrameRequest) return false;
  Copy(0, out);
  return true;
}

platform::Event SlotContext::Switch(const policy::Verdict* reply) {
  if (reply) Answer(*reply);
  platform::Event event;
  for (;;) {
    if (Gone()) {
      event.reason = platform::StopReason::kGone;
      return event;
    }
    if (TakeRequest(&event.syscall)) {
      event.reason = platform::StopReason::kSyscall;
      return event;
    }
    if (!yield_()) {
      event.reason = platform::StopReason::kGone;
      return event;
    }
  }
}

bool SlotContext::Completed(uint32_t depth, uint64_t seq, int64_t* result) const {
  if (depth >= kMaxDepth) return false;
  const Frame& f = slot_->frames[depth];
  if (Load(f.done_seq) != seq) return false;
  *result = f.done_result;
  return true;
}

}  // namespace snare::systrap
