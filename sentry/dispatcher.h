// The sentry's event loop: finds slots whose guest thread trapped, resumes that thread's
// Task, sleeps on the doorbell futex when nothing happens, and frees the slots of threads
// that died.
#ifndef SNARE_SENTRY_DISPATCHER_H_
#define SNARE_SENTRY_DISPATCHER_H_

#include <atomic>
#include <memory>
#include <vector>

#include "platform/systrap/shared_region.h"
#include "sentry/syscall_handler.h"
#include "sentry/task.h"

namespace snare {

class Dispatcher {
 public:
  // answer_traps: false for inproc, where the dispatcher only frees dead threads' slots.
  Dispatcher(void* region, SyscallHandler* handler, bool answer_traps);

  // Runs until stop is set and nothing is pending.
  void Run(const std::atomic<bool>& stop);
  // Wakes Run() so it notices stop.
  void Wake();

  size_t peak_tasks() const { return peak_tasks_; }

 private:
  bool ServeOnce();
  void Sleep();
  void Reap(bool all_claimed);
  void FreeSlot(uint32_t index);

  void* region_;
  systrap::Header* header_;
  SyscallHandler* handler_;
  bool answer_traps_;
  std::vector<std::unique_ptr<Task>> tasks_;
  size_t live_tasks_ = 0;
  size_t peak_tasks_ = 0;
};

}  // namespace snare

#endif  // SNARE_SENTRY_DISPATCHER_H_
