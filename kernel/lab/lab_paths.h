// Where the kernel lab finds its inputs and keeps its cache.
#ifndef SNARE_KERNEL_LAB_LAB_PATHS_H_
#define SNARE_KERNEL_LAB_LAB_PATHS_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::lab {

inline constexpr const char* kSourceTarball = "/usr/src/linux-source-6.12.tar.xz";

// $XDG_CACHE_HOME/snare/lab, else ~/.cache/snare/lab.
std::string DefaultCacheDir();

// The repository's kernel/ folder holding patches/ and config/: --kernel-dir, else
// $SNARE_KERNEL_DIR, else ./kernel when run from a checkout.
std::expected<std::string, std::string> FindKernelDir(const std::string& flag);

// The variants with a patch folder under kernel/patches/6.12/, plus "stock" (no patches).
std::vector<std::string> KnownVariants(const std::string& kernel_dir);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_LAB_PATHS_H_
