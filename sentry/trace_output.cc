#include "sentry/trace_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace snare::sentry {
namespace {

// The fd a path names when it is one of snare's own (/dev/stderr, /dev/fd/N, ...), else -1.
int OwnFdNamedBy(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const size_t n = strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n) continue;
    char* end = nullptr;
    const long fd = strtol(path.c_str() + n, &end, 10);
    if (*end == 0 && fd >= 0 && fd < (1 << 20)) return static_cast<int>(fd);
  }
  return -1;
}

std::string CannotOpen(const std::string& path, int err) {
  return "cannot open the trace file '" + path + "': " + strerror(err);
}

}  // namespace

int OwnDescriptionOf(int fd, bool nonblocking) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    // O_NONBLOCK for the open itself too: opening a pipe for writing would otherwise wait
    // for a reader that may never come.
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    int own = open(self.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (own >= 0) {
      if (!nonblocking) fcntl(own, F_SETFL, fcntl(own, F_GETFL) & ~O_NONBLOCK);
      return own;
    }
    // ENXIO: a socket (or a pipe without a reader); share the description after all.
  }
  return fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

TraceOutput::TraceOutput(int fd, std::optional<util::PendingFile> file)
    : fd_(fd), file_(std::move(file)), terminal_(isatty(fd) == 1) {}

TraceOutput::TraceOutput(TraceOutput&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      file_(std::move(other.file_)),
      terminal_(other.terminal_),
      finished_(std::exchange(other.finished_, true)) {
  other.file_.reset();
}

TraceOutput::~TraceOutput() {
  // Unfinished: the run failed before its end. The unpublished file goes with file_.
  if (!finished_ && !file_ && fd_ >= 0) close(fd_);
}

std::expected<TraceOutput, std::string> TraceOutput::Open(const std::string& path) {
  const int own_fd = path.empty() ? 2 : OwnFdNamedBy(path);
  if (own_fd >= 0) {
    int fd = OwnDescriptionOf(own_fd, /*nonblocking=*/false);
    if (fd < 0) return std::unexpected(CannotOpen(path.empty() ? "stderr" : path, errno));
    return TraceOutput(fd, std::nullopt);
  }
  // The user's devices (a guest cannot plant anything there): opened as they are.
  const bool device = path.starts_with("/dev/") || path.starts_with("/proc/");
  struct stat st;
  const bool exists = lstat(path.c_str(), &st) == 0;
  if (device || (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))) {
    if (exists && S_ISDIR(st.st_mode)) return std::unexpected(CannotOpen(path, EISDIR));
    // No O_CREAT, no O_TRUNC: an existing FIFO or device is written, never made or emptied.
    int fd =
        open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | (device ? 0 : O_NOFOLLOW));
    if (fd < 0) return std::unexpected(CannotOpen(path, errno));
    return TraceOutput(fd, std::nullopt);
  }
  util::PendingFileOptions options;
  options.hidden = true;
  options.no_symlinks = true;
  auto file = util::PendingFile::Create(path, options);
  if (!file) {
    return std::unexpected("cannot open the trace file: " + file.error());
  }
  const int fd = file->fd();
  return TraceOutput(fd, std::move(*file));
}

std::expected<void, std::string> TraceOutput::Finish(bool in_use, int write_error) {
  if (finished_) return {};
  finished_ = true;
  std::expected<void, std::string> result;
  if (file_ && write_error) {
    result = std::unexpected("the trace file '" + file_->path() + "' was not written: " +
                             strerror(write_error) + "; nothing was left in its place");
    file_.reset();  // the failed write ended the writer: nobody else uses the fd
  } else if (file_) {
    // No fsync: a trace is not worth making snare's exit wait for the disk.
    result = file_->Publish(/*sync=*/false);
    if (!result) {
      const std::string where = file_->WhereNow();
      result =
          std::unexpected(result.error() + (where.empty() ? std::string(": the trace is lost")
                                                          : "; the trace is in '" + where + "'"));
      file_->Release();  // keep it
    } else if (in_use) {
      file_->Release();
    }
    file_.reset();
  } else if (!in_use && fd_ >= 0) {
    close(fd_);
  }
  fd_ = -1;
  return result;
}

}  // namespace snare::sentry
