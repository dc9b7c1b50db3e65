// The memfd behind the systrap shared region, mapped into the sentry.
#ifndef SNARE_PLATFORM_SYSTRAP_SHARED_REGION_FILE_H_
#define SNARE_PLATFORM_SYSTRAP_SHARED_REGION_FILE_H_

#include <expected>
#include <string>

#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::systrap {

class SharedRegionFile {
 public:
  // A zeroed region of kRegionSize with a valid header; sealed against resizing.
  static std::expected<SharedRegionFile, std::string> Create(Mode mode);
  SharedRegionFile(SharedRegionFile&& other) noexcept;
  SharedRegionFile& operator=(SharedRegionFile&&) = delete;
  ~SharedRegionFile();

  int fd() const { return fd_; }
  void* base() const { return base_; }
  Header* header() const { return HeaderAt(base_); }

 private:
  SharedRegionFile(int fd, void* base) : fd_(fd), base_(base) {}
  int fd_;
  void* base_;
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SHARED_REGION_FILE_H_
