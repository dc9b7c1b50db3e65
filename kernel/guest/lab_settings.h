// What one run of the lab does: the lab.* words of the kernel command line (when the
// program is /init) or the matching --flags (when it is run by hand on a host).
#ifndef SNARE_KERNEL_GUEST_LAB_SETTINGS_H_
#define SNARE_KERNEL_GUEST_LAB_SETTINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace snare::lab {

// probe: BEGIN and END only (does the kernel boot?); contention: only that suite;
// selftests: the kernel's own selftests the initramfs holds under /selftests.
enum class Mode { kChecks, kBench, kAll, kProbe, kContention, kSelftests };

struct Settings {
  std::string variant = "unknown";  // lab.variant: the kernel variant's name (stock, reserve...)
  Mode mode = Mode::kAll;           // lab.mode: checks, bench, all, probe, contention, selftests
  long traps = 1000000;             // lab.traps: trapped syscalls in the no-leak check
  int max_depth = 32;               // lab.maxdepth: deepest user namespace in the depth sweep
  int reps = 5;                     // lab.reps: timed batches per measured point
  long batch = 10000;               // lab.batch: traps per timed batch
  bool contention = false;          // lab.contention: run the contention suite (needs >1 CPU)
  long contention_traps = 100000;   // lab.ctraps: traps per process in the contention suite
  // lab.stscale: kselftest's timeouts times this (emulated CPUs are slower than hardware).
  int selftest_timeout_factor = 4;
  // Values that could not be used (the default was kept); the program reports them as a
  // failed check so a typo on the command line cannot pass unnoticed.
  std::vector<std::string> errors;
};

std::string_view ModeName(Mode mode);

// Reads lab.KEY=VALUE words from /proc/cmdline's text; other words are ignored.
Settings ParseKernelCommandLine(std::string_view cmdline);

// Reads --KEY=VALUE arguments (the same keys); anything else is an error.
Settings ParseArguments(int argc, const char* const* argv);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_LAB_SETTINGS_H_
