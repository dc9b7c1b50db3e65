// The CPUs the calling thread may run on: its affinity mask as a list, read with a mask as
// large as the kernel asks for (CPU_SETSIZE's 1,024 bits are not a limit of the kernel).
#ifndef SNARE_UTIL_ALLOWED_CPUS_H_
#define SNARE_UTIL_ALLOWED_CPUS_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::util {

// In increasing order, never empty; or the failed call and its errno.
std::expected<std::vector<int>, std::string> AllowedCpus();

}  // namespace snare::util

#endif  // SNARE_UTIL_ALLOWED_CPUS_H_
