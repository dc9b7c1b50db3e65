// How long the sentry keeps spinning after a trap before it sleeps on the doorbell. Waking a
// sleeping sentry costs tens of microseconds on a VM (the futex wake's IPI to a halted vCPU),
// many times a whole trap; a spinning sentry costs a CPU. The window adapts to the gaps
// between traps: a trap that came after the sentry gave up, but within kMaxNs, doubles it;
// a longer pause (or a periodic wake with no trap) halves it, within [kMinNs, kMaxNs], so
// the spin per trap stays bounded. Nothing is spun when no guest thread runs its own code (every
// one is blocked in a call or waiting for a reply: the next trap is not near), nor when the running
// guest threads would need every CPU the sentry may use (the spinner would take one from them).
// A thread running a call the sentry just answered is a reason to spin for the first
// kAnsweredCallNs (most such calls, an mmap or a read of a cached file, return within it and
// trap again soon, and a sentry that slept through one costs the next trap a wake-up), but
// never one that needs a CPU: a thread in a call mostly waits (gcc's driver in wait4). A thread
// loading a program (the guest before its first trap, or one whose answered call is an execve)
// needs a CPU but is no reason to spin: an exec and a program's loading change page tables,
// which a busy second vCPU slows on these VMs more than one wake-up costs (`/bin/true` ran at
// 0.92 and `sh -c 'ls / | wc -l'` at 0.93 of a sentry spinning through them, 31 pairs each).
#ifndef SNARE_PLATFORM_SYSTRAP_SPIN_WINDOW_H_
#define SNARE_PLATFORM_SYSTRAP_SPIN_WINDOW_H_

#include <cstdint>

namespace snare::systrap {

class SpinWindow {
 public:
  static constexpr uint64_t kMinNs = 50'000;
  static constexpr uint64_t kMaxNs = 2'000'000;
  static constexpr uint64_t kInitialNs = 200'000;
  static constexpr uint64_t kAnsweredCallNs = 500'000;

  // cpus: how many CPUs the sentry may run on (1: never spin).
  explicit SpinWindow(int cpus) : cpus_(cpus) {}

  // The sentry found nothing to do at now_ns, after its fixed spin: the window starts.
  void Start(uint64_t now_ns) { start_ns_ = now_ns; }
  // Whether to go on spinning at now_ns while `running` guest threads run their own code,
  // `answered` ones run a call the sentry answered (a passthrough, in the kernel) and
  // `loading` ones load a program (they take a CPU, and are no reason to spin).
  bool ShouldSpin(uint64_t now_ns, uint32_t running, uint32_t answered = 0,
                  uint32_t loading = 0) const;
  // The sentry slept after the window and woke at now_ns (a trap, or a periodic check).
  void Woke(uint64_t now_ns);

  uint64_t window_ns() const { return window_ns_; }

 private:
  int cpus_;
  uint64_t window_ns_ = kInitialNs;
  uint64_t start_ns_ = 0;
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SPIN_WINDOW_H_
