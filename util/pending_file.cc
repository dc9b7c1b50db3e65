#include "util/pending_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "util/host_path.h"

namespace snare::util {
namespace {

constexpr int kAttempts = 64;

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// BASE.tmp.XXXXXXXXXX with ten random letters and digits (mkstemp's alphabet), short enough
// for NAME_MAX whatever BASE is.
std::string RandomTempName(const std::string& base) {
  static constexpr char kAlphabet[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[10];
  size_t got = 0;
  while (got < sizeof(bytes)) {
    ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  std::string name = base.substr(0, 200) + ".tmp.";
  for (size_t i = 0; i < sizeof(bytes); ++i) {
    // Without getrandom (never on Linux >= 3.17) O_EXCL still makes a guessed name harmless.
    unsigned v = i < got ? bytes[i] : static_cast<unsigned>(getpid() * 31 + i * 7);
    name += kAlphabet[v % (sizeof(kAlphabet) - 1)];
  }
  return name;
}

std::string Failure(const std::string& what, const std::string& path, int err) {
  return what + " '" + path + "': " + strerror(err);
}

}  // namespace

std::expected<PendingFile, std::string> PendingFile::Create(const std::string& path,
                                                            const PendingFileOptions& options) {
  const std::string base = BaseOf(path);
  if (base.empty() || base == "." || base == "..") {
    return std::unexpected(Failure("cannot write", path, EISDIR));
  }
  int dir_fd = -1;
  if (options.no_symlinks) {
    auto dir = OpenWithoutSymlinks(AT_FDCWD, DirectoryOf(path), O_PATH | O_DIRECTORY);
    if (!dir) return std::unexpected("cannot write '" + path + "': " + dir.error());
    dir_fd = *dir;
  } else {
    dir_fd = open(DirectoryOf(path).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) return std::unexpected(Failure("cannot write", path, errno));
  }
  auto name_for = [&](int attempt) {
    return options.temp_name ? options.temp_name(attempt) : RandomTempName(base);
  };
  if (options.hidden) {
    int fd = openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, options.mode);
    if (fd >= 0) {
      PendingFile file(path, base, dir_fd, fd, "");
      file.temp_name_fn_ = options.temp_name;
      return file;
    }
    // EOPNOTSUPP (the filesystem has no O_TMPFILE) and friends: a visible name instead.
  }
  int err = EEXIST;
  for (int attempt = 0; attempt < kAttempts && err == EEXIST; ++attempt) {
    const std::string name = name_for(attempt);
    // O_EXCL: never an existing file, nor a symlink (O_NOFOLLOW says so twice).
    int fd = openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    options.mode);
    if (fd >= 0) return PendingFile(path, base, dir_fd, fd, name);
    err = errno;
  }
  close(dir_fd);
  return std::unexpected(Failure("cannot write", path, err));
}

PendingFile::PendingFile(std::string path, std::string base, int dir_fd, int fd,
                         std::string temp_name)
    : path_(std::move(path)),
      base_(std::move(base)),
      dir_fd_(dir_fd),
      fd_(fd),
      temp_name_(std::move(temp_name)) {}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : path_(std::move(other.path_)),
      base_(std::move(other.base_)),
      dir_fd_(std::exchange(other.dir_fd_, -1)),
      fd_(std::exchange(other.fd_, -1)),
      temp_name_(std::move(other.temp_name_)),
      published_(other.published_),
      keep_(other.keep_),
      temp_name_fn_(std::move(other.temp_name_fn_)) {
  other.temp_name_.clear();
}

PendingFile::~PendingFile() {
  if (!published_ && !keep_ && !temp_name_.empty() && dir_fd_ >= 0) {
    unlinkat(dir_fd_, temp_name_.c_str(), 0);
  }
  if (fd_ >= 0) close(fd_);
  if (dir_fd_ >= 0) close(dir_fd_);
}

std::string PendingFile::WhereNow() const {
  if (published_) return path_;
  if (temp_name_.empty()) return "";
  const size_t slash = path_.rfind('/');
  return slash == std::string::npos ? temp_name_ : path_.substr(0, slash + 1) + temp_name_;
}

std::expected<void, std::string> PendingFile::WriteAll(const char* data, size_t len) {
  while (len) {
    ssize_t n = write(fd_, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::unexpected(Failure("writing", path_, n < 0 ? errno : EIO));
    data += n;
    len -= static_cast<size_t>(n);
  }
  return {};
}

// Gives a hidden file a random name (linkat never replaces an existing name).
std::expected<void, std::string> PendingFile::LinkHidden() {
  const std::string self = "/proc/self/fd/" + std::to_string(fd_);
  int err = EEXIST;
  for (int attempt = 0; attempt < kAttempts && err == EEXIST; ++attempt) {
    const std::string name = temp_name_fn_ ? temp_name_fn_(attempt) : RandomTempName(base_);
    int r = linkat(AT_FDCWD, self.c_str(), dir_fd_, name.c_str(), AT_SYMLINK_FOLLOW);
    // Without /proc: AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH.
    if (r != 0 && errno == ENOENT) r = linkat(fd_, "", dir_fd_, name.c_str(), AT_EMPTY_PATH);
    if (r == 0) {
      temp_name_ = name;
      return {};
    }
    err = errno;
  }
  return std::unexpected(Failure("cannot finish", path_, err));
}

std::expected<void, std::string> PendingFile::Publish(bool sync) {
  if (published_) return {};
  if (fd_ < 0) return std::unexpected(Failure("cannot finish", path_, EBADF));
  if (sync && fsync(fd_) != 0) return std::unexpected(Failure("finishing", path_, errno));
  if (temp_name_.empty()) {
    if (auto linked = LinkHidden(); !linked) return linked;
  }
  // rename replaces whatever is at PATH (a planted symlink included) without following it.
  if (renameat(dir_fd_, temp_name_.c_str(), dir_fd_, base_.c_str()) != 0) {
    return std::unexpected(Failure("finishing", path_, errno));
  }
  published_ = true;
  return {};
}

void PendingFile::Release() {
  fd_ = -1;
  keep_ = true;
}

}  // namespace snare::util
