#include "bench/workload_catalog.h"

namespace snare::bench {

std::string WorkloadExecutableBeside(const std::string& self) {
  const size_t slash = self.rfind('/');
  return (slash == std::string::npos ? std::string() : self.substr(0, slash + 1)) +
         kWorkloadExecutable;
}

const std::vector<std::string>& SeedWorkloadNames() {
  static const std::vector<std::string> names = {"signal1-processes", "signal1-threads", "tasklist",
                                                 "thread-create-join"};
  return names;
}

}  // namespace snare::bench
