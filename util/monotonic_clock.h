// CLOCK_MONOTONIC as one number, for timing runs, sweeps and timeouts.
#ifndef SNARE_UTIL_MONOTONIC_CLOCK_H_
#define SNARE_UTIL_MONOTONIC_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace snare::util {

inline uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

inline double MonotonicSeconds() { return static_cast<double>(MonotonicNs()) / 1e9; }

}  // namespace snare::util

#endif  // SNARE_UTIL_MONOTONIC_CLOCK_H_
