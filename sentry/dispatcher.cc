#include "sentry/dispatcher.h"

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "sentry/monotonic_clock.h"

namespace snare {

using systrap::Slot;

namespace {

template <typename T>
T Load(const T& v) {
  return __atomic_load_n(&v, __ATOMIC_ACQUIRE);
}

constexpr uint64_t kReapIntervalNs = 20'000'000;
constexpr uint32_t kSpinsPerYield = 256;
constexpr uint32_t kLowSlots = 64;

}  // namespace

Dispatcher::Dispatcher(void* region, SyscallHandler* handler, bool answer_traps)
    : region_(region),
      header_(systrap::HeaderAt(region)),
      handler_(handler),
      answer_traps_(answer_traps),
      tasks_(systrap::kMaxSlots) {}

bool Dispatcher::ServeOnce() {
  bool worked = false;
  uint32_t high = std::min(Load(header_->slots_high), systrap::kMaxSlots);
  for (uint32_t i = 0; i < high; ++i) {
    Slot* slot = systrap::SlotAt(region_, i);
    if (!Load(slot->pending)) continue;
    __atomic_store_n(&slot->pending, 0u, __ATOMIC_RELEASE);
    if (!answer_traps_) continue;
    std::unique_ptr<Task>& task = tasks_[i];
    if (!task || task->finished() || task->generation() != Load(slot->generation)) {
      if (task) --live_tasks_;
      task = std::make_unique<Task>(slot, handler_);
      peak_tasks_ = std::max(peak_tasks_, ++live_tasks_);
    }
    task->Resume();
    worked = true;
  }
  return worked;
}

void Dispatcher::Wake() {
  __atomic_fetch_add(&header_->doorbell, 1, __ATOMIC_SEQ_CST);
  syscall(SYS_futex, &header_->doorbell, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

void Dispatcher::Sleep() {
  uint32_t seen = Load(header_->doorbell);
  __atomic_store_n(&header_->sentry_sleeping, 1u, __ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  uint32_t high = std::min(Load(header_->slots_high), systrap::kMaxSlots);
  bool pending = false;
  for (uint32_t i = 0; i < high && !pending; ++i) {
    pending = Load(systrap::SlotAt(region_, i)->pending) != 0;
  }
  if (!pending) {
    timespec timeout = {0, static_cast<long>(kReapIntervalNs)};
    syscall(SYS_futex, &header_->doorbell, FUTEX_WAIT, seen, &timeout, nullptr, 0);
  }
  __atomic_store_n(&header_->sentry_sleeping, 0u, __ATOMIC_SEQ_CST);
}

void Dispatcher::FreeSlot(uint32_t index) {
  if (tasks_[index]) {
    tasks_[index].reset();
    --live_tasks_;
  }
  Slot* slot = systrap::SlotAt(region_, index);
  for (auto& f : slot->frames)
    __atomic_store_n(&f.state, uint32_t{systrap::kFrameIdle}, __ATOMIC_RELAXED);
  __atomic_store_n(&slot->state, uint32_t{systrap::kSlotFree}, __ATOMIC_RELEASE);
}

// A slot is free again once its thread is gone. host_tid comes from the guest: a lie only
// costs the guest its own slot.
void Dispatcher::Reap(bool all_claimed) {
  uint32_t high = std::min(Load(header_->slots_high), systrap::kMaxSlots);
  for (uint32_t i = 0; i < high; ++i) {
    Slot* slot = systrap::SlotAt(region_, i);
    uint32_t state = Load(slot->state);
    if (state == systrap::kSlotFree) continue;
    if (state != systrap::kSlotExiting && !all_claimed) continue;
    int32_t tid = Load(slot->host_tid);
    if (tid > 0 && kill(tid, 0) < 0 && errno == ESRCH) FreeSlot(i);
  }
}

void Dispatcher::Run(const std::atomic<bool>& stop) {
  uint64_t last_reap = MonotonicNs();
  uint32_t idle = 0;
  for (;;) {
    bool worked = ServeOnce();
    if (answer_traps_ && handler_->tracing()) {
      for (auto& task : tasks_) {
        if (task) task->FlushTrace(false);
      }
    }
    if (worked) {
      idle = 0;
      continue;
    }
    if (stop.load(std::memory_order_acquire)) break;
    if (answer_traps_ && ++idle < Load(header_->spin_iterations)) {
      // A stub woken by a reply may wait on this CPU's run queue behind the spinner.
      if (idle % kSpinsPerYield == 0) sched_yield();
      __builtin_ia32_pause();
      continue;
    }
    idle = 0;
    uint64_t now = MonotonicNs();
    if (now - last_reap >= kReapIntervalNs) {
      uint32_t high = Load(header_->slots_high);
      uint32_t claimed = 0;
      for (uint32_t i = 0; i < std::min(high, systrap::kMaxSlots); ++i) {
        claimed += Load(systrap::SlotAt(region_, i)->state) != systrap::kSlotFree;
      }
      Reap(systrap::kMaxSlots - claimed < kLowSlots);
      last_reap = now;
    }
    Sleep();
  }
  for (auto& task : tasks_) task.reset();
}

}  // namespace snare
