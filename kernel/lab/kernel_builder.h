// Builds (or reuses from the cache) a bzImage of Debian's linux-source-6.12 for one variant:
// unpack, apply the variant's patches, tinyconfig plus the lab's fragment, make bzImage.
// Cache entries are keyed by source version, variant, patch and fragment contents, and
// appear only when complete (built in a temporary folder, then renamed).
#ifndef SNARE_KERNEL_LAB_KERNEL_BUILDER_H_
#define SNARE_KERNEL_LAB_KERNEL_BUILDER_H_

#include <expected>
#include <functional>
#include <string>

namespace snare::lab {

struct KernelBuild {
  std::string variant;
  std::string bzimage;  // path in the cache
  std::string key;      // cache key
  bool reused = false;
};

// progress receives short status lines ("stock: make: CC kernel/signal.o").
std::expected<KernelBuild, std::string> BuildKernel(
    const std::string& kernel_dir, const std::string& cache_dir, const std::string& variant,
    const std::function<void(const std::string&)>& progress);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_KERNEL_BUILDER_H_
