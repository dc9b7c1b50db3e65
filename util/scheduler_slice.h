// The calling thread's request to the fair scheduler (EEVDF, Linux 6.12 and later): how long a
// slice it asks for each time it runs. A thread that asks for a short one gets an earlier
// deadline when it wakes and may preempt a thread that asked for more: a server thread that
// answers other threads' requests in microseconds gets to run soon after it is woken, where
// it would otherwise wait behind them for the rest of their slice.
#ifndef SNARE_UTIL_SCHEDULER_SLICE_H_
#define SNARE_UTIL_SCHEDULER_SLICE_H_

#include <sys/types.h>

#include <cstdint>
#include <expected>
#include <string>

namespace snare::util {

// The shortest slice the kernel grants (it clamps shorter requests up to it): what a thread
// that answers other threads in microseconds asks for.
inline constexpr uint64_t kShortestSchedulerSliceNs = 100'000;

// Asks for slices of `slice_ns` (the kernel clamps it to 0.1-100 ms) and keeps the thread's
// policy and nice value. Leaves a thread that is not SCHED_OTHER or SCHED_BATCH (a real-time
// one) as it is. Kernels before 6.12 accept the request and ignore it.
std::expected<void, std::string> RequestSchedulerSlice(uint64_t slice_ns);

// The slice thread `tid` (0: the calling thread) asks for in ns as the kernel reports it, or
// 0 where the kernel reports none (before 6.12).
std::expected<uint64_t, std::string> SchedulerSlice(pid_t tid = 0);

}  // namespace snare::util

#endif  // SNARE_UTIL_SCHEDULER_SLICE_H_
