// Builds (or reuses from the cache) the kernel's own selftests that touch seccomp and signal
// delivery, statically, from the same linux-source-6.12 tree the lab kernels come from:
// unpack, make headers, then each selftest folder's own Makefile with CC="gcc -static".
// They are user programs: one build serves every variant and configuration.
#ifndef SNARE_KERNEL_LAB_SELFTEST_BUILDER_H_
#define SNARE_KERNEL_LAB_SELFTEST_BUILDER_H_

#include <expected>
#include <functional>
#include <string>
#include <vector>

namespace snare::lab {

struct Selftest {
  std::string name;   // "seccomp/seccomp_bpf": its folder under tools/testing/selftests, program
  std::string path;   // the static binary in the cache
  int timeout_s = 0;  // the folder's kselftest timeout (settings file, else 45 s)
  // Its verdict compares timings (seccomp_benchmark's "1 bitmapped ~= 2 bitmapped"): under
  // emulation that varies from run to run, so a difference from stock is not a regression.
  bool timing = false;
};

struct SelftestBuild {
  std::string dir;  // cache entry
  std::string key;
  bool reused = false;
  std::vector<Selftest> tests;
};

// The selftests the lab runs, as folder/program.
std::vector<std::string> LabSelftestNames();

// Whether the named selftest's verdict rests on timings (see Selftest::timing).
bool IsTimingSelftest(const std::string& name);

std::expected<SelftestBuild, std::string> BuildSelftests(
    const std::string& cache_dir, const std::function<void(const std::string&)>& progress);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_SELFTEST_BUILDER_H_
