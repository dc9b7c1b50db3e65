#include "util/cpu_time.h"

#include <sys/resource.h>
#include <time.h>

namespace snare::util {
namespace {

double Seconds(const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

}  // namespace

double ProcessCpuSeconds() {
  timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

double ChildrenCpuSeconds() {
  rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0) return 0;
  return Seconds(ru.ru_utime) + Seconds(ru.ru_stime);
}

}  // namespace snare::util
