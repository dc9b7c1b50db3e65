#include "platform/systrap/shared_region_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::systrap {

std::expected<SharedRegionFile, std::string> SharedRegionFile::Create(Mode mode) {
  int fd = memfd_create("snare-shared", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return std::unexpected(std::string("memfd_create: ") + strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(kRegionSize)) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
    int err = errno;
    close(fd);
    return std::unexpected(std::string("preparing the shared region: ") + strerror(err));
  }
  void* base = mmap(nullptr, kRegionSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    int err = errno;
    close(fd);
    return std::unexpected(std::string("mapping the shared region: ") + strerror(err));
  }
  Header* h = HeaderAt(base);
  h->magic = kMagic;
  h->version = kVersion;
  h->mode = mode;
  return SharedRegionFile(fd, base);
}

SharedRegionFile::SharedRegionFile(SharedRegionFile&& other) noexcept
    : fd_(other.fd_), base_(other.base_) {
  other.fd_ = -1;
  other.base_ = nullptr;
}

SharedRegionFile::~SharedRegionFile() {
  if (base_) munmap(base_, kRegionSize);
  if (fd_ >= 0) close(fd_);
}

}  // namespace snare::systrap
