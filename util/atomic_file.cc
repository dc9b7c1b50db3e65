#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::util {
namespace {

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

std::expected<void, std::string> CheckWritableDirectory(const std::string& path) {
  std::string dir = DirectoryOf(path);
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return std::unexpected("cannot write '" + path + "': directory '" + dir +
                           "': " + strerror(errno));
  }
  return {};
}

std::expected<void, std::string> WriteFileAtomically(const std::string& path,
                                                     std::string_view contents) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::unexpected("cannot write '" + path + "': " + strerror(errno));
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      close(fd);
      unlink(tmp.c_str());
      return std::unexpected("writing '" + path + "': " + strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  bool synced = fsync(fd) == 0;
  bool closed = close(fd) == 0;
  if (!synced || !closed || rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    unlink(tmp.c_str());
    return std::unexpected("finishing '" + path + "': " + strerror(err));
  }
  return {};
}

}  // namespace snare::util
