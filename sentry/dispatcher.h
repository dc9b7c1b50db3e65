// The sentry's event loop: asks the Machine which guest threads trapped, resumes each one's
// Task, lets the Machine spin or sleep when nothing happens, and drops the Tasks of threads
// that died.
#ifndef SNARE_SENTRY_DISPATCHER_H_
#define SNARE_SENTRY_DISPATCHER_H_

#include <atomic>
#include <memory>
#include <vector>

#include "platform/platform.h"
#include "sentry/syscall_handler.h"
#include "sentry/task.h"

namespace snare::sentry {

class Dispatcher {
 public:
  Dispatcher(platform::Machine* machine, SyscallHandler* handler);

  // Runs until stop is set and nothing is pending.
  void Run(const std::atomic<bool>& stop);
  // Wakes Run() so it notices stop.
  void Wake() { machine_->Wake(); }

  size_t peak_tasks() const { return peak_tasks_; }

 private:
  void Serve(const platform::TrapSource& source);
  void Drop(uint32_t thread);

  platform::Machine* machine_;
  SyscallHandler* handler_;
  std::vector<std::unique_ptr<Task>> tasks_;  // by thread id
  size_t live_tasks_ = 0;
  size_t peak_tasks_ = 0;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_DISPATCHER_H_
