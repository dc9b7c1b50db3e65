#ifndef SNARE_PLATFORM_SYSTRAP_CPU_MOVER_H_
#define SNARE_PLATFORM_SYSTRAP_CPU_MOVER_H_

#include <sched.h>

#include <cstdint>

namespace snare::systrap {

// Moves the calling thread (the sentry) off the CPU a guest thread runs on. Under load the
// kernel woke the sleeping sentry on its waker's CPU (8,185 of 8,192 wakes on a 2-vCPU VM;
// likely SIS_UTIL cutting the search for an idle CPU short), so a sentry that sleeps to
// give a guest thread its CPU is woken back onto it by that thread's next trap, and the two
// keep sharing one CPU while another idles: every trap then pays a wake-up and a yield. A move
// costs tens of microseconds here (an IPI to a halted vCPU), so it is rationed.
class CpuMover {
 public:
  static constexpr uint64_t kMinIntervalNs = 2'000'000;

  // Remembers the CPUs the calling thread may run on now: a move never leaves them.
  CpuMover();

  // Whether a move may be tried at now_ns: two CPUs allowed at least, and none tried in the
  // kMinIntervalNs before.
  bool Rested(uint64_t now_ns) const;
  // Moves off `cpu` onto another allowed one, if Rested(now_ns). Returns whether it moved.
  bool MoveOff(uint32_t cpu, uint64_t now_ns);

  int allowed_cpus() const { return CPU_COUNT(&allowed_); }
  uint64_t moves() const { return moves_; }

 private:
  cpu_set_t allowed_;
  uint64_t tried_ns_ = 0;
  bool tried_ = false;
  uint64_t moves_ = 0;
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_CPU_MOVER_H_
