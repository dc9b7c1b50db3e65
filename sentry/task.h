// One guest thread in the sentry: a Boost.Context fiber running the straight-line loop
//   for (;;) { event = ctx.Switch(reply); reply = Handle(event); }
// The dispatcher resumes the fiber when the thread has trapped; Switch() yields back to the
// dispatcher while the guest runs.
#ifndef SNARE_SENTRY_TASK_H_
#define SNARE_SENTRY_TASK_H_

#include <boost/context/fiber.hpp>
#include <cstdint>
#include <memory>

#include "platform/platform.h"
#include "sentry/syscall_handler.h"

namespace snare::sentry {

class Task {
 public:
  // Fiber stack per task: handlers format at most a few KiB of trace text.
  static constexpr size_t kStackSize = 64 * 1024;

  Task(platform::Machine* machine, const platform::TrapSource& source, SyscallHandler* handler);
  ~Task();
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  // Runs the task until it waits for the guest again or ends.
  void Resume();
  bool finished() const { return finished_; }
  uint64_t generation() const { return generation_; }
  // Prints trace lines whose results have arrived; final prints the rest as "= ?".
  void FlushTrace(bool final);

 private:
  void Body();
  void Yield();

  SyscallHandler* handler_;
  uint64_t generation_;
  std::unique_ptr<platform::Context> context_;
  PendingTrace pending_[platform::kMaxTrapDepth];
  boost::context::fiber fiber_;
  boost::context::fiber caller_;
  // Where the fiber's stack and the dispatcher's lie, for AddressSanitizer's stack switches.
  boost::context::stack_context stack_;
  const void* caller_stack_ = nullptr;
  size_t caller_stack_size_ = 0;
  // ThreadSanitizer's states for the fiber and for whoever resumed it (null without TSan).
  void* tsan_fiber_ = nullptr;
  void* tsan_caller_ = nullptr;
  bool finished_ = false;
  bool ending_ = false;  // the Task is being destroyed: its Switch() returns kGone
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TASK_H_
