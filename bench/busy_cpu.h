// A thread that keeps one otherwise idle CPU busy, spinning on `pause` as a sentry waiting for
// the next trap does, for as long as the object lives. The programs suite runs each program
// natively beside one: on some VMs a busy neighbour slows a program that never talks to it
// (on this project's, its exec, exit and page-table changes: the README's "Where a short
// program's time goes"), and that share of snare's cost is the spinning's, not the
// interposition's.
#ifndef SNARE_BENCH_BUSY_CPU_H_
#define SNARE_BENCH_BUSY_CPU_H_

#include <atomic>
#include <cstdint>
#include <thread>

namespace snare::bench {

class BusyCpu {
 public:
  // Starts the spinner at SCHED_IDLE (it takes only a CPU that nothing else wants: a program
  // whose own threads need every CPU loses none to it) and returns once it has spun, or after
  // a bounded wait where every CPU is taken.
  BusyCpu();
  ~BusyCpu();  // stops and joins the spinner
  BusyCpu(const BusyCpu&) = delete;
  BusyCpu& operator=(const BusyCpu&) = delete;

  // Spin rounds so far (256 `pause`s each).
  uint64_t rounds() const { return rounds_.load(std::memory_order_relaxed); }
  // Whether the kernel took SCHED_IDLE for the spinner (else it spins at its normal policy).
  bool idle_policy() const { return idle_policy_.load(std::memory_order_acquire); }

 private:
  void Spin();

  std::atomic<bool> stop_{false};
  std::atomic<bool> idle_policy_{false};
  std::atomic<uint64_t> rounds_{0};
  std::thread thread_;
};

}  // namespace snare::bench

#endif  // SNARE_BENCH_BUSY_CPU_H_
