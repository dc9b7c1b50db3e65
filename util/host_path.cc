#include "util/host_path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::util {

std::string DescribeSymlinkIn(int dirfd, const std::string& path) {
  std::string prefix;
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    prefix = path.substr(0, end);
    start = end + 1;
    if (prefix.empty() || prefix.back() == '/') continue;  // the root, or "//"
    struct stat st;
    if (fstatat(dirfd, prefix.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return "";
    if (!S_ISLNK(st.st_mode)) continue;
    char target[4096];
    const ssize_t n = readlinkat(dirfd, prefix.c_str(), target, sizeof(target) - 1);
    const std::string to = n >= 0 ? std::string(target, static_cast<size_t>(n)) : "?";
    return prefix + " is a symbolic link (to " + to + ")";
  }
  return "";
}

std::expected<int, std::string> OpenWithoutSymlinks(int dirfd, const std::string& path, int flags,
                                                    mode_t mode, bool in_root) {
  open_how how = {};
  how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | (in_root ? RESOLVE_IN_ROOT : 0);
  for (;;) {
    const long fd = syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof(how));
    if (fd >= 0) return static_cast<int>(fd);
    if (errno == EINTR || errno == EAGAIN) continue;
    break;
  }
  const int err = errno;
  if (err == ELOOP) {
    std::string link = DescribeSymlinkIn(dirfd, path);
    if (link.empty()) link = "a component is a symbolic link";
    return std::unexpected(path + ": " + link +
                           "; snare follows no links in the paths it opens for a run (a guest "
                           "could have made them): give the path without them");
  }
  if (err == ENOSYS) {
    return std::unexpected(path + ": openat2 is missing (snare needs Linux 5.6 or later)");
  }
  return std::unexpected(path + ": " + strerror(err));
}

bool ExistsWithoutSymlinks(const std::string& path, int flags) {
  auto fd = OpenWithoutSymlinks(AT_FDCWD, path, O_PATH | flags);
  if (!fd) return false;
  close(*fd);
  return true;
}

}  // namespace snare::util
