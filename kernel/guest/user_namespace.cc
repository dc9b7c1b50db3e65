#include "kernel/guest/user_namespace.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::lab {
namespace {

std::expected<void, std::string> WriteFile(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(std::string("open ") + path + ": " + strerror(errno));
  ssize_t n = write(fd, text.data(), text.size());
  int saved = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    return std::unexpected(std::string("write ") + path + ": " + strerror(saved));
  }
  return {};
}

}  // namespace

std::expected<void, std::string> EnterUserNamespace() {
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (unshare(CLONE_NEWUSER) != 0) {
    return std::unexpected(std::string("unshare(CLONE_NEWUSER): ") + strerror(errno));
  }
  if (auto r = WriteFile("/proc/self/setgroups", "deny"); !r) return r;
  if (auto r = WriteFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1"); !r) return r;
  return WriteFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
}

}  // namespace snare::lab
