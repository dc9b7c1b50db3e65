#include "bench/busy_cpu.h"

#include <sched.h>

#include <chrono>

namespace snare::bench {

BusyCpu::BusyCpu() : thread_([this] { Spin(); }) {
  // Running, not starting, when the measured program starts.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (rounds() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

BusyCpu::~BusyCpu() {
  stop_.store(true, std::memory_order_relaxed);
  thread_.join();
}

void BusyCpu::Spin() {
  sched_param param = {};
  idle_policy_.store(sched_setscheduler(0, SCHED_IDLE, &param) == 0, std::memory_order_release);
  while (!stop_.load(std::memory_order_relaxed)) {
    for (int i = 0; i < 256; ++i) __builtin_ia32_pause();
    rounds_.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace snare::bench
