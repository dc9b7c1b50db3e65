#include "sentry/task.h"

#include <boost/context/fixedsize_stack.hpp>

namespace snare {

Task::Task(systrap::Slot* slot, SyscallHandler* handler) : handler_(handler) {
  context_ = std::make_unique<systrap::SlotContext>(slot, [this] { Yield(); });
  fiber_ = boost::context::fiber(std::allocator_arg, boost::context::fixedsize_stack(kStackSize),
                                 [this](boost::context::fiber&& caller) {
                                   caller_ = std::move(caller);
                                   Body();
                                   finished_ = true;
                                   return std::move(caller_);
                                 });
}

Task::~Task() {
  FlushTrace(true);
  // Destroying a suspended fiber unwinds its stack.
}

void Task::Resume() {
  if (finished_ || !fiber_) return;
  fiber_ = std::move(fiber_).resume();
}

void Task::Yield() { caller_ = std::move(caller_).resume(); }

void Task::Body() {
  platform::Reply reply;
  const platform::Reply* answer = nullptr;
  for (;;) {
    platform::Event event = context_->Switch(answer);
    if (event.reason == platform::StopReason::kGone) return;
    uint32_t depth = event.syscall.depth;
    handler_->FlushPending(*context_, &pending_[depth], true);
    reply = handler_->Handle(event.syscall, &pending_[depth]);
    answer = &reply;
  }
}

void Task::FlushTrace(bool final) {
  for (auto& p : pending_) handler_->FlushPending(*context_, &p, final);
}

}  // namespace snare
