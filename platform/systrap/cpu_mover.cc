#include "platform/systrap/cpu_mover.h"

namespace snare::systrap {

CpuMover::CpuMover() {
  if (sched_getaffinity(0, sizeof(allowed_), &allowed_) != 0) {
    CPU_ZERO(&allowed_);
    const int cpu = sched_getcpu();
    CPU_SET(cpu >= 0 ? cpu : 0, &allowed_);
  }
}

bool CpuMover::Rested(uint64_t now_ns) const {
  return CPU_COUNT(&allowed_) >= 2 && (!tried_ || now_ns - tried_ns_ >= kMinIntervalNs);
}

bool CpuMover::MoveOff(uint32_t cpu, uint64_t now_ns) {
  if (!Rested(now_ns) || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed_)) return false;
  tried_ = true;
  tried_ns_ = now_ns;
  cpu_set_t others = allowed_;
  CPU_CLR(cpu, &others);
  // The kernel moves a thread at once when its CPU leaves its mask; restoring the whole
  // mask then leaves it where it landed, free to go anywhere later.
  if (sched_setaffinity(0, sizeof(others), &others) != 0) return false;
  sched_setaffinity(0, sizeof(allowed_), &allowed_);
  ++moves_;
  return true;
}

}  // namespace snare::systrap
