// Writes the lab's initramfs: an uncompressed newc cpio archive with /init (the static
// lab-init program), /dev/console, /dev, /proc and /tmp. The kernel unpacks it as is.
#ifndef SNARE_KERNEL_LAB_INITRAMFS_H_
#define SNARE_KERNEL_LAB_INITRAMFS_H_

#include <cstdint>
#include <expected>
#include <span>
#include <string>

namespace snare::lab {

// The archive's bytes.
std::string BuildInitramfs(std::span<const uint8_t> init_binary);

// The lab-init program embedded in snare.
std::span<const uint8_t> LabInitBytes();

// Writes BuildInitramfs(LabInitBytes()) to path atomically.
std::expected<void, std::string> WriteLabInitramfs(const std::string& path);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_INITRAMFS_H_
