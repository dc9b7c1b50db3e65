#include "util/allowed_cpus.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace snare::util {
namespace {

struct CpuSetFree {
  void operator()(cpu_set_t* set) const { CPU_FREE(set); }
};

std::string ErrnoText(int error) {
  return std::string(strerrorname_np(error) ? strerrorname_np(error) : "?") + " (" +
         strerror(error) + ")";
}

}  // namespace

std::expected<std::vector<int>, std::string> AllowedCpus() {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  for (long count = std::max<long>(CPU_SETSIZE, configured); count <= (1 << 22); count *= 2) {
    std::unique_ptr<cpu_set_t, CpuSetFree> set(CPU_ALLOC(count));
    if (set == nullptr) return std::unexpected("CPU_ALLOC: " + ErrnoText(errno));
    const size_t size = CPU_ALLOC_SIZE(count);
    if (sched_getaffinity(0, size, set.get()) == 0) {
      std::vector<int> cpus;
      for (int cpu = 0; cpu < count; ++cpu) {
        if (CPU_ISSET_S(cpu, size, set.get())) cpus.push_back(cpu);
      }
      if (cpus.empty()) return std::unexpected("sched_getaffinity: empty CPU mask");
      return cpus;
    }
    if (errno != EINVAL) return std::unexpected("sched_getaffinity: " + ErrnoText(errno));
  }
  return std::unexpected("sched_getaffinity: no CPU mask size was accepted");
}

}  // namespace snare::util
