#include "bench/syscall_subject.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace snare::bench {

const std::vector<std::string>& SyscallSubject::Names() {
  static const std::vector<std::string> names = {"getppid", "read4k", "openat-close"};
  return names;
}

std::expected<SyscallSubject, std::string> SyscallSubject::Create(std::string_view name) {
  SyscallSubject s;
  s.name_ = std::string(name);
  if (name == "getppid") {
    s.numbers_ = {SYS_getppid};
    return s;
  }
  if (name != "read4k" && name != "openat-close") {
    return std::unexpected("unknown syscall subject '" + std::string(name) +
                           "' (getppid, read4k, openat-close)");
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
      path_(std::move(other.path_)) {
  other.fd_ = -1;
  other.path_.clear();
}

SyscallSubject::~SyscallSubject() {
  if (fd_ >= 0) close(fd_);
  if (!path_.empty()) unlink(path_.c_str());
}

void SyscallSubject::Call() {
  if (numbers_[0] == SYS_getppid) {
    syscall(SYS_getppid);
  } else if (numbers_[0] == SYS_pread64) {
    syscall(SYS_pread64, fd_, buf_, sizeof(buf_), 0);
  } else {
    long fd = syscall(SYS_openat, AT_FDCWD, path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) syscall(SYS_close, fd);
  }
}

}  // namespace snare::bench
