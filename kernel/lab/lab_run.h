// `snare lab` (parsed by cmd/lab_command.cc): builds the stock and patched 6.12 kernels, boots each
// under qemu with the lab's initramfs, runs the checks and benchmarks inside, stores one run per
// variant in snare bench's results store and prints the comparison.
#ifndef SNARE_KERNEL_LAB_LAB_RUN_H_
#define SNARE_KERNEL_LAB_LAB_RUN_H_

#include <string>
#include <vector>

namespace snare::lab {

struct LabOptions {
  std::string action;                 // "build", "run" or "smoke"
  std::vector<std::string> variants;  // empty: every known variant
  std::string config = "lab";         // kernel/config/NAME.config merged after lab.config
  bool quick = false;
  bool kvm = true;  // try KVM (a probe decides); false: TCG only
  std::string db, cache, kernel_dir;
  double timeout_s = 0;  // per boot; 0: by action
};

// command_line is stored with each run. Returns the exit status.
int RunLab(const LabOptions& options, const std::string& command_line);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_LAB_RUN_H_
