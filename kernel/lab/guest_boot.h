// Boots a lab kernel under qemu with the lab initramfs and collects what lab-init prints
// on the serial console (SNARE-LAB-* lines): checks and measured points.
#ifndef SNARE_KERNEL_LAB_GUEST_BOOT_H_
#define SNARE_KERNEL_LAB_GUEST_BOOT_H_

#include <expected>
#include <functional>
#include <string>
#include <vector>

#include "results/bench_result.h"

namespace snare::lab {

enum class Accel {
  kKvm,        // hardware virtualization (only when the probe boots)
  kTcgIcount,  // single-threaded TCG, guest time follows instructions: repeatable A/B
  kTcgMulti,   // multi-threaded TCG, one host thread per vCPU: contention runs
};
std::string AccelName(Accel accel);

struct BootOptions {
  std::string bzimage;
  std::string initrd;
  std::string variant;
  Accel accel = Accel::kTcgIcount;
  int cpus = 1;
  std::string lab_args;  // "lab.mode=all lab.traps=100000 ..."
  double timeout_s = 600;
};

struct LabCheck {
  std::string name;
  bool pass = false;
  std::string detail;
};

// One kernel selftest as lab-init ran it (see kernel/guest/selftest_runner.h).
struct SelftestOutcome {
  std::string name;
  int exit_status = -1;
  int signal = 0;
  bool timed_out = false;
  int ok = 0, not_ok = 0, skip = 0;
  double seconds = 0;
  std::string error;
  std::vector<std::string> failed;  // the first failing lines
};

// kselftest's verdict: exit 0 passes, exit 4 (KSFT_SKIP) skips, anything else fails.
enum class SelftestVerdict { kPass, kSkip, kFail };
SelftestVerdict VerdictOf(const SelftestOutcome& outcome);
std::string VerdictName(SelftestVerdict verdict);

struct BootResult {
  std::string kernel;  // uname -r inside
  int cpus = 0;
  std::vector<LabCheck> checks;
  std::vector<results::BenchRow> rows;
  std::vector<SelftestOutcome> selftests;
  // Kernel console lines that report a bug: lockdep, KASAN, KFENCE, SLUB, WARN, BUG, Oops.
  std::vector<std::string> splats;
  double seconds = 0;
};

// True when a kernel console line reports a bug (the first line of a splat).
bool IsSplatLine(const std::string& line);

std::expected<BootResult, std::string> BootLabKernel(
    const BootOptions& options, const std::function<void(const std::string&)>& progress);

// True when a kernel boots under KVM within 20 s (nested virtualization can hang).
bool KvmWorks(const std::string& bzimage, const std::string& initrd);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_GUEST_BOOT_H_
