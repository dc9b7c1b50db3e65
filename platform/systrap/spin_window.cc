#include "platform/systrap/spin_window.h"

#include <algorithm>

namespace snare::systrap {

bool SpinWindow::ShouldSpin(uint64_t now_ns, uint32_t running, uint32_t answered,
                            uint32_t loading) const {
  const uint64_t since = now_ns - start_ns_;
  // Threads in a call do not count against the spinner's CPU: most of them wait (a wait4, a
  // read of a pipe) and those that do not are back within kAnsweredCallNs. A loader does:
  // it runs in the kernel and the loaded program's start.
  if (cpus_ <= 1 || running + loading >= static_cast<uint32_t>(cpus_)) return false;
  if (running == 0 && (since >= kAnsweredCallNs || answered == 0)) return false;
  return since < window_ns_;
}

void SpinWindow::Woke(uint64_t now_ns) {
  if (now_ns - start_ns_ < kMaxNs) {
    window_ns_ = std::min(2 * window_ns_, kMaxNs);  // a longer spin would have caught it
  } else {
    window_ns_ = std::max(window_ns_ / 2, kMinNs);  // beyond any spin: it was waste
  }
}

}  // namespace snare::systrap
