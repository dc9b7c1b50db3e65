// The CPUs this process may run on, and pinning to one of them.
#ifndef SNARE_KERNEL_GUEST_CPU_SET_H_
#define SNARE_KERNEL_GUEST_CPU_SET_H_

#include <vector>

namespace snare::lab {

// CPU numbers in the calling thread's affinity mask (at least one entry).
std::vector<int> AllowedCpus();

// Restricts the calling thread to one CPU; false if the kernel refused.
bool PinToCpu(int cpu);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_CPU_SET_H_
