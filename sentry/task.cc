#include "sentry/task.h"

#include <boost/context/fixedsize_stack.hpp>

namespace snare::sentry {

Task::Task(platform::Machine* machine, const platform::TrapSource& source, SyscallHandler* handler)
    : handler_(handler), generation_(source.generation) {
  context_ = machine->NewContext(source, [this] { Yield(); });
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
  policy::Verdict reply;
  const policy::Verdict* answer = nullptr;
  for (;;) {
    platform::Event event = context_->Switch(answer);
    if (event.reason == platform::StopReason::kGone) return;
    const uint32_t depth = event.syscall.depth < platform::kMaxTrapDepth ? event.syscall.depth : 0;
    handler_->FlushPending(*context_, &pending_[depth], true);
    reply = handler_->Handle(event.syscall, &pending_[depth]);
    answer = &reply;
  }
}

void Task::FlushTrace(bool final) {
  for (auto& p : pending_) handler_->FlushPending(*context_, &p, final);
}

}  // namespace snare::sentry
