#ifndef SNARE_PLATFORM_SYSTRAP_CPU_CROWDING_H_
#define SNARE_PLATFORM_SYSTRAP_CPU_CROWDING_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace snare::systrap {

// Whether more tasks want to run than there are CPUs for the sentry, from the kernel's count
// of runnable tasks (/proc/loadavg). On such a machine a spinning sentry or stub only takes
// CPU time from the thread it waits for, or from a process beside the guest: under a
// two-job compile on 2 vCPUs, `python3 -c pass` took ~1 s with spinning and ~0.2 s without.
// The count is the whole system's; a sentry kept to fewer CPUs than the machine has may
// find it crowded when only other CPUs are busy, and sleeps where it could have spun.
class CpuCrowding {
 public:
  // A read costs ~4 us here (a PVM guest), and the sentry reads right after an answer: at
  // most once in this interval.
  static constexpr uint64_t kCheckIntervalNs = 2'000'000;

  // cpus: how many CPUs the sentry may run on; loadavg: the file to read (tests name another).
  explicit CpuCrowding(int cpus, const char* loadavg = "/proc/loadavg");
  ~CpuCrowding();
  CpuCrowding(const CpuCrowding&) = delete;
  CpuCrowding& operator=(const CpuCrowding&) = delete;

  // Whether the CPUs are crowded: the last two reads found more runnable tasks than CPUs (one
  // alone may be a kernel thread's moment). Reads again once kCheckIntervalNs has passed
  // since the last read. Never crowded where /proc/loadavg cannot be read.
  bool Crowded(uint64_t now_ns);
  uint64_t crowded_reads() const { return crowded_reads_; }

  // The runnable tasks in /proc/loadavg's text ("0.52 0.58 0.59 3/467 12345": 3).
  static std::optional<int> Runnable(std::string_view loadavg);

 private:
  int fd_;
  int cpus_;
  bool crowded_ = false;
  bool last_read_crowded_ = false;
  bool read_once_ = false;
  uint64_t read_ns_ = 0;
  uint64_t crowded_reads_ = 0;
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_CPU_CROWDING_H_
