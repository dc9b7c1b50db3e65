// What the kernel builder and the selftest builder share: the source's version, cache keys,
// folders, and unpacking Debian's linux-source-6.12 tarball.
#ifndef SNARE_KERNEL_LAB_BUILD_STEPS_H_
#define SNARE_KERNEL_LAB_BUILD_STEPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/lab/command_stream.h"

namespace snare::lab {

// An FNV-1a hash over everything a cache entry was built from.
class CacheKey {
 public:
  CacheKey& Add(const std::string& data);
  std::string Hex() const;  // 16 hex digits

 private:
  uint64_t hash_ = 0xcbf29ce484222325ull;
};

// Debian's package version of linux-source-6.12 (the tarball's size when dpkg cannot say).
std::string SourceVersion();

std::string ReadFile(const std::string& path);  // empty when missing
bool Exists(const std::string& path);
bool MakeDirs(const std::string& path);  // mkdir -p
void RemoveTree(const std::string& path);

// Unpacks the tarball into dest (which must exist), without its top folder; `exclude`
// names top-level folders not to unpack.
StreamResult UnpackSource(const std::string& dest, const std::vector<std::string>& exclude);

// "make", through ccache when there is one (objects kept in cache_dir/ccache): variants and
// configurations share most objects, and a miss costs only ccache's lookup.
std::vector<std::string> MakeCommand(const std::string& cache_dir, const std::string& src);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_BUILD_STEPS_H_
