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

SlotContext::SlotContext(Slot* slot, std::function<void()> yield, bool trace)
    : slot_(slot), generation_(Load(slot->generation)), yield_(std::move(yield)), trace_(trace) {}

bool SlotContext::Gone() const {
  return Load(slot_->state) == kSlotFree || Load(slot_->generation) != generation_;
}

void SlotContext::Answer(const policy::Verdict& reply) {
  Frame& f = slot_->frames[answering_depth_];
  switch (reply.kind) {
    case policy::Verdict::kPassthrough:
      f.action = kActionPassthrough;
      break;
    case policy::Verdict::kReturn:
      f.action = kActionReturn;
      break;
    case policy::Verdict::kKill:
    case policy::Verdict::kBroker:  // unresolved: the sentry never sends it
      f.action = kActionKill;
      break;
  }
  f.value = reply.value;
  if (reply.kind == policy::Verdict::kReturn) {  // the only reply the stub copies out for
    uint32_t len = reply.copyout_len <= kCopyoutMax ? reply.copyout_len : 0;
    if (len && reply.copyout) std::memcpy(f.copyout, reply.copyout, len);
    f.copyout_addr = reply.copyout_addr;
    f.copyout_len = len;
  }
  __atomic_store_n(&f.state, uint32_t{kFrameReply}, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (Load(f.stub_waiting)) syscall(SYS_futex, &f.state, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

bool SlotContext::TakeRequest(platform::SyscallRequest* out) {
  // The deepest request first: an outer one is waiting behind a guest signal handler. The
  // stub raises depth before it writes a request, so none lies deeper (a guest that lies
  // about its depth only hides its own requests).
  const uint32_t depth = Load(slot_->depth);
  const int deepest = static_cast<int>(depth < kMaxDepth ? depth : kMaxDepth) - 1;
  for (int d = deepest; d >= 0; --d) {
    Frame& f = slot_->frames[d];
    if (Load(f.state) != kFrameRequest || f.seq == taken_seq_[d]) continue;
    out->depth = static_cast<uint32_t>(d);
    out->tid = slot_->tid;
    out->seq = f.seq;
    out->nr = f.nr;
    std::memcpy(out->args, f.args, sizeof(out->args));
    out->rip = f.rip;
    for (int i = 0; i < 2 && trace_; ++i) {
      std::memcpy(out->strings[i], f.strings[i], kTraceString);
      out->strings[i][kTraceString - 1] = 0;
    }
    taken_seq_[d] = f.seq;  // the stub keeps sleeping on kFrameRequest until the reply
    answering_depth_ = static_cast<uint32_t>(d);
    return true;
  }
  return false;
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
    yield_();
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
