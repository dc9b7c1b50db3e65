#include "bench/bench_options.h"

namespace snare::bench {

const std::vector<std::string>& SuiteNames() {
  static const std::vector<std::string> names = {"ladder", "depth",    "contention", "workloads",
                                                 "peers",  "programs", "memory",     "stress"};
  return names;
}

const std::vector<std::string>& RungNames() {
  static const std::vector<std::string> names = {
      "native",           "filter-allow",   "filter-errno",  "signal-floor",
      "inproc",           "systrap",        "systrap-futex", "systrap-1cpu",
      "systrap-confined", "systrap-notify", "systrap-patch"};
  return names;
}

}  // namespace snare::bench
