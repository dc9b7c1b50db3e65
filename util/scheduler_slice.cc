#include "util/scheduler_slice.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::util {
namespace {

// The kernel's struct sched_attr (SCHED_ATTR_SIZE_VER1): glibc has no wrapper, and
// <linux/sched/types.h> redefines glibc's struct sched_param.
struct SchedAttr {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;
  uint64_t sched_deadline;
  uint64_t sched_period;
  uint32_t sched_util_min;
  uint32_t sched_util_max;
};
static_assert(sizeof(SchedAttr) == 56);

std::expected<SchedAttr, std::string> AttrOf(pid_t tid) {
  SchedAttr attr = {};
  if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0) != 0) {
    return std::unexpected(std::string("sched_getattr: ") + strerror(errno));
  }
  return attr;
}

}  // namespace

std::expected<void, std::string> RequestSchedulerSlice(uint64_t slice_ns) {
  auto attr = AttrOf(0);
  if (!attr) return std::unexpected(attr.error());
  if (attr->sched_policy != SCHED_OTHER && attr->sched_policy != SCHED_BATCH) return {};
  SchedAttr wanted = {};
  wanted.size = sizeof(wanted);
  wanted.sched_policy = attr->sched_policy;
  wanted.sched_nice = attr->sched_nice;  // unchanged: no privilege needed
  wanted.sched_runtime = slice_ns;
  if (syscall(SYS_sched_setattr, 0, &wanted, 0) != 0) {
    return std::unexpected(std::string("sched_setattr: ") + strerror(errno));
  }
  return {};
}

std::expected<uint64_t, std::string> SchedulerSlice(pid_t tid) {
  auto attr = AttrOf(tid);
  if (!attr) return std::unexpected(attr.error());
  return attr->sched_runtime;
}

}  // namespace snare::util
