// CPU time the kernel has accounted, for figures such as the sentry's CPU per guest CPU.
#ifndef SNARE_UTIL_CPU_TIME_H_
#define SNARE_UTIL_CPU_TIME_H_

namespace snare::util {

// User + system seconds of every thread of the calling process so far.
double ProcessCpuSeconds();
// User + system seconds of the calling process's children that have been waited for, and
// of their waited-for descendants.
double ChildrenCpuSeconds();

}  // namespace snare::util

#endif  // SNARE_UTIL_CPU_TIME_H_
