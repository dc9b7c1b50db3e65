#include "sentry/task.h"

#include <boost/context/fixedsize_stack.hpp>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace snare::sentry {
namespace {

// AddressSanitizer follows a switch of stacks only when told, and Boost.Context's fcontext
// fibers do not tell it: before a switch, the stack switched to; after it, the switch's end.
void StartSwitch(void** fake_stack, const void* bottom, size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

void FinishSwitch(void* fake_stack, const void** bottom, size_t* size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake_stack, bottom, size);
#endif
}

// ThreadSanitizer keeps a shadow state per stack: each fiber gets one, and every switch
// names the one it goes to.
void* NewTsanFiber() {
#if defined(__SANITIZE_THREAD__)
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}

void* CurrentTsanFiber() {
#if defined(__SANITIZE_THREAD__)
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}

void SwitchTsanFiber(void* to) {
#if defined(__SANITIZE_THREAD__)
  __tsan_switch_to_fiber(to, 0);
#else
  (void)to;
#endif
}

void DestroyTsanFiber(void* fiber) {
#if defined(__SANITIZE_THREAD__)
  if (fiber) __tsan_destroy_fiber(fiber);
#else
  (void)fiber;
#endif
}

// A fixedsize_stack that says where the stack it made lies.
struct RecordedStack {
  boost::context::fixedsize_stack inner;
  boost::context::stack_context* made;

  boost::context::stack_context allocate() {
    *made = inner.allocate();
    return *made;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { inner.deallocate(sc); }
};

}  // namespace

Task::Task(platform::Machine* machine, const platform::TrapSource& source, SyscallHandler* handler)
    : handler_(handler), generation_(source.generation) {
  context_ = machine->NewContext(source, [this] {
    Yield();
    return !ending_;
  });
  tsan_fiber_ = NewTsanFiber();
  fiber_ = boost::context::fiber(
      std::allocator_arg, RecordedStack{boost::context::fixedsize_stack(kStackSize), &stack_},
      [this](boost::context::fiber&& caller) {
        FinishSwitch(nullptr, &caller_stack_, &caller_stack_size_);
        caller_ = std::move(caller);
        Body();
        finished_ = true;
        StartSwitch(nullptr, caller_stack_, caller_stack_size_);  // this stack ends here
        SwitchTsanFiber(tsan_caller_);
        return std::move(caller_);
      });
}

Task::~Task() {
  FlushTrace(true);
  // A suspended fiber is resumed to return from Body (Switch() says kGone). Destroying it
  // suspended would unwind its stack by a C++ exception, whose first throw in a static
  // binary cost 0.3-1.2 ms here, after the guest had exited and before snare could.
  if (fiber_ && !finished_) {
    ending_ = true;
    Resume();
  }
  // Should it still be suspended, destroying it unwinds its stack: a switch to it and back.
  if (fiber_ && !finished_) {
    void* fake_stack = nullptr;
    StartSwitch(&fake_stack, static_cast<char*>(stack_.sp) - stack_.size, stack_.size);
    void* here = CurrentTsanFiber();
    SwitchTsanFiber(tsan_fiber_);
    fiber_ = boost::context::fiber();
    SwitchTsanFiber(here);
    FinishSwitch(fake_stack, nullptr, nullptr);
  }
  DestroyTsanFiber(tsan_fiber_);
}

void Task::Resume() {
  if (finished_ || !fiber_) return;
  void* fake_stack = nullptr;
  StartSwitch(&fake_stack, static_cast<char*>(stack_.sp) - stack_.size, stack_.size);
  tsan_caller_ = CurrentTsanFiber();
  SwitchTsanFiber(tsan_fiber_);
  fiber_ = std::move(fiber_).resume();
  FinishSwitch(fake_stack, nullptr, nullptr);
}

void Task::Yield() {
  void* fake_stack = nullptr;
  StartSwitch(&fake_stack, caller_stack_, caller_stack_size_);
  SwitchTsanFiber(tsan_caller_);
  caller_ = std::move(caller_).resume();
  FinishSwitch(fake_stack, &caller_stack_, &caller_stack_size_);
}

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
