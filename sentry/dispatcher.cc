#include "sentry/dispatcher.h"

#include <algorithm>

namespace snare::sentry {

Dispatcher::Dispatcher(platform::Machine* machine, SyscallHandler* handler)
    : machine_(machine), handler_(handler), tasks_(machine->MaxThreads()) {}

void Dispatcher::Serve(const platform::TrapSource& source) {
  if (source.thread >= tasks_.size()) return;
  std::unique_ptr<Task>& task = tasks_[source.thread];
  if (!task || task->finished() || task->generation() != source.generation) {
    if (task) --live_tasks_;
    task = std::make_unique<Task>(machine_, source, handler_);
    peak_tasks_ = std::max(peak_tasks_, ++live_tasks_);
  }
  task->Resume();
}

void Dispatcher::Drop(uint32_t thread) {
  if (thread >= tasks_.size() || !tasks_[thread]) return;
  tasks_[thread].reset();
  --live_tasks_;
}

void Dispatcher::Run(const std::atomic<bool>& stop) {
  std::vector<platform::TrapSource> ready;
  std::vector<uint32_t> gone;
  for (;;) {
    ready.clear();
    const bool worked = machine_->CollectTraps(&ready);
    for (const platform::TrapSource& source : ready) Serve(source);
    if (handler_->tracing()) {
      for (auto& task : tasks_) {
        if (task) task->FlushTrace(false);
      }
    }
    if (worked) continue;
    if (stop.load(std::memory_order_acquire)) break;
    gone.clear();
    machine_->Idle(&gone);
    if (gone.empty()) continue;
    for (uint32_t thread : gone) Drop(thread);
    machine_->Release(gone);
  }
  for (auto& task : tasks_) task.reset();
}

}  // namespace snare::sentry
