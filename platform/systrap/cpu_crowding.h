#ifndef SNARE_PLATFORM_SYSTRAP_CPU_CROWDING_H_
#define SNARE_PLATFORM_SYSTRAP_CPU_CROWDING_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace snare::systrap {

// Whether tasks beside the guest leave fewer than two CPUs, one for the sentry and one for the
// guest thread it answers, from the kernel's count of runnable tasks (/proc/loadavg) less the
// guest's own. On such a machine a spinning sentry or stub only takes CPU time from the
// thread it waits for, or from the process beside it: under a two-job compile on 2 vCPUs,
// `python3 -c pass` took ~1 s with spinning and ~0.2 s without. (A guest whose own threads
// fill the CPUs is the spin window's to judge.) The count is the whole system's; a sentry kept
// to fewer CPUs than the machine has may find it crowded when only other CPUs are busy, and
// sleeps where it could have spun.
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

  // Whether the CPUs are crowded: the last two reads found the tasks beside the guest leaving
  // fewer than two CPUs (one read alone may be a kernel thread's moment). Reads again once
  // kCheckIntervalNs has passed since the last read. Never crowded where /proc/loadavg
  // cannot be read. guest_threads: the guest threads that may be among the runnable tasks.
  bool Crowded(uint64_t now_ns, int guest_threads = 0);
  // Whether Crowded(now_ns) would read the file again.
  bool DueAt(uint64_t now_ns) const {
    return fd_ >= 0 && (!read_once_ || now_ns - read_ns_ >= kCheckIntervalNs);
  }
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
