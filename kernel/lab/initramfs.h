// Writes the lab's initramfs: an uncompressed newc cpio archive with /init (the static
// lab-init program), /dev/console, /dev, /proc and /tmp, and any files more (the kernel's
// selftests under /selftests). The kernel unpacks it as is.
#ifndef SNARE_KERNEL_LAB_INITRAMFS_H_
#define SNARE_KERNEL_LAB_INITRAMFS_H_

#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <vector>

namespace snare::lab {

// A file more, e.g. "selftests/seccomp/seccomp_bpf"; its folders are made as needed.
struct InitramfsFile {
  std::string path;
  uint32_t mode = 0100755;
  std::string data;
};

// The archive's bytes.
std::string BuildInitramfs(std::span<const uint8_t> init_binary,
                           const std::vector<InitramfsFile>& extra = {});

// The lab-init program embedded in snare.
std::span<const uint8_t> LabInitBytes();

// Writes BuildInitramfs(LabInitBytes(), extra) to path atomically.
std::expected<void, std::string> WriteLabInitramfs(const std::string& path,
                                                   const std::vector<InitramfsFile>& extra = {});

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_INITRAMFS_H_
