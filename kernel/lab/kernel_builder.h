// Builds (or reuses from the cache) a bzImage of Debian's linux-source-6.12 for one variant:
// unpack, apply the variant's patches (its folder's *.patch but a 0000- cover letter),
// tinyconfig plus the lab's fragment (and the configuration's), make bzImage. Cache
// entries are keyed by source version, variant, the patches' diffs and the fragments, and
// appear only when complete (built in a temporary folder, then renamed).
#ifndef SNARE_KERNEL_LAB_KERNEL_BUILDER_H_
#define SNARE_KERNEL_LAB_KERNEL_BUILDER_H_

#include <expected>
#include <functional>
#include <string>
#include <vector>

namespace snare::lab {

// The configuration every lab table is measured on: tinyconfig + kernel/config/lab.config.
// Others (kernel/config/NAME.config) are merged after it.
inline constexpr const char* kLabConfig = "lab";

struct KernelBuild {
  std::string variant;
  std::string config;
  std::string bzimage;  // path in the cache
  std::string key;      // cache key
  bool reused = false;
};

// What of a git format-patch file changes the tree: from the first "diff --git" line up to
// the "-- " signature, without "index" lines (blob names). Cache keys hash this, so a
// reworded commit message, another author or another git builds nothing again. A text with
// no "diff --git" line is returned whole, but its index lines.
std::string PatchDiff(const std::string& patch);

// "reserve" in the lab configuration, "reserve+debug" in another.
std::string ConfiguredName(const std::string& variant, const std::string& config);

// "lab" and the other NAME.config files of kernel_dir/config.
std::vector<std::string> KnownConfigs(const std::string& kernel_dir);

// progress receives short status lines ("stock: make: CC kernel/signal.o").
std::expected<KernelBuild, std::string> BuildKernel(
    const std::string& kernel_dir, const std::string& cache_dir, const std::string& variant,
    const std::string& config, const std::function<void(const std::string&)>& progress);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_KERNEL_BUILDER_H_
