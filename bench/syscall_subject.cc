#include "bench/syscall_subject.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace snare::bench {
namespace {

// TSC ticks in `ns`, measured against CLOCK_MONOTONIC over 20 ms (before any filter).
uint64_t TscTicksPer(uint64_t ns) {
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  const uint64_t t0 = __rdtsc();
  do {
    clock_gettime(CLOCK_MONOTONIC, &b);
  } while ((b.tv_sec - a.tv_sec) * 1'000'000'000LL + (b.tv_nsec - a.tv_nsec) < 20'000'000);
  const uint64_t ticks = __rdtsc() - t0;
  const double elapsed = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  return static_cast<uint64_t>(static_cast<double>(ticks) * ns / elapsed);
}

}  // namespace

const std::vector<std::string>& SyscallSubject::Names() {
  static const std::vector<std::string> names = {"getppid", "read4k", "openat-close",
                                                 "getppid-gap"};
  return names;
}

std::expected<SyscallSubject, std::string> SyscallSubject::Create(std::string_view name) {
  SyscallSubject s;
  s.name_ = std::string(name);
  if (name == "getppid") {
    s.numbers_ = {SYS_getppid};
    return s;
  }
  if (name == "getppid-gap") {
    s.numbers_ = {SYS_getppid};
    s.gap_ticks_ = TscTicksPer(kGapNs);
    return s;
  }
  if (name != "read4k" && name != "openat-close") {
    return std::unexpected("unknown syscall subject '" + std::string(name) +
                           "' (getppid, read4k, openat-close, getppid-gap)");
  }
  char path[] = "/tmp/snare-bench-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return std::unexpected(std::string("mkstemp: ") + strerror(errno));
  std::memset(s.buf_, 'x', sizeof(s.buf_));
  bool ok = write(fd, s.buf_, sizeof(s.buf_)) == static_cast<ssize_t>(sizeof(s.buf_));
  s.path_ = path;
  if (!ok) {
    close(fd);
    unlink(path);
    return std::unexpected(std::string("writing ") + path + ": " + strerror(errno));
  }
  if (name == "read4k") {
    s.fd_ = fd;
    s.numbers_ = {SYS_pread64};
  } else {
    close(fd);
    s.numbers_ = {SYS_openat, SYS_close};
  }
  return s;
}

SyscallSubject::SyscallSubject(SyscallSubject&& other) noexcept
    : name_(std::move(other.name_)),
      numbers_(std::move(other.numbers_)),
      fd_(other.fd_),
      gap_ticks_(other.gap_ticks_),
      path_(std::move(other.path_)) {
  other.fd_ = -1;
  other.path_.clear();
}

SyscallSubject::~SyscallSubject() {
  if (fd_ >= 0) close(fd_);
  if (!path_.empty()) unlink(path_.c_str());
}

void SyscallSubject::Call() {
  if (gap_ticks_) {
    // The guest's own work between calls: no syscall, the TSC only.
    const uint64_t end = __rdtsc() + gap_ticks_;
    while (__rdtsc() < end) _mm_pause();
  }
  // Through glibc's wrappers, as programs make them (their `mov $nr, %eax; syscall` sites
  // are what --patch rewrites).
  if (numbers_[0] == SYS_getppid) {
    getppid();
  } else if (numbers_[0] == SYS_pread64) {
    benchmark_sink_ = pread(fd_, buf_, sizeof(buf_), 0);
  } else {
    int fd = openat(AT_FDCWD, path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) close(fd);
  }
}

}  // namespace snare::bench
