// The memfd behind the systrap shared region, mapped into the sentry.
#ifndef SNARE_SENTRY_SHARED_REGION_FILE_H_
#define SNARE_SENTRY_SHARED_REGION_FILE_H_

#include <expected>
#include <string>

#include "platform/systrap/shared_region.h"

namespace snare {

class SharedRegionFile {
 public:
  // A zeroed region of kRegionSize with a valid header; sealed against resizing.
  static std::expected<SharedRegionFile, std::string> Create(systrap::Mode mode);
  SharedRegionFile(SharedRegionFile&& other) noexcept;
  SharedRegionFile& operator=(SharedRegionFile&&) = delete;
  ~SharedRegionFile();

  int fd() const { return fd_; }
  void* base() const { return base_; }
  systrap::Header* header() const { return systrap::HeaderAt(base_); }

 private:
  SharedRegionFile(int fd, void* base) : fd_(fd), base_(base) {}
  int fd_;
  void* base_;
};

}  // namespace snare

#endif  // SNARE_SENTRY_SHARED_REGION_FILE_H_
