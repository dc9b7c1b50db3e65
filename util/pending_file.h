// A file that replaces PATH only once it is complete: written under a name nobody else can
// predict or reuse, then renamed over PATH. Safe against whoever else can write PATH's
// directory (a hostile guest working there): the temporary is created with O_EXCL and
// O_NOFOLLOW (or has no name at all, O_TMPFILE), so a symlink planted at a temporary name
// is never followed, and a symlink planted at PATH is replaced by the rename, not followed.
// The directory is opened once, so renaming or replacing it afterwards changes nothing.
#ifndef SNARE_UTIL_PENDING_FILE_H_
#define SNARE_UTIL_PENDING_FILE_H_

#include <sys/types.h>

#include <expected>
#include <functional>
#include <string>

namespace snare::util {

struct PendingFileOptions {
  mode_t mode = 0644;  // before the umask
  // No name at all until Publish (O_TMPFILE), where the filesystem supports it: a file
  // written for a long time (a trace) cannot be opened, truncated or replaced by its name
  // meanwhile. Otherwise, and as the fallback, a random visible name next to PATH.
  bool hidden = false;
  // The directory is opened without following a symbolic link in any component (host_path.h):
  // for files written on behalf of a guest that could have planted one there.
  bool no_symlinks = false;
  // Tests only: the temporary name to try at each attempt (0, 1, ...); empty: random.
  std::function<std::string(int attempt)> temp_name;
};

class PendingFile {
 public:
  static std::expected<PendingFile, std::string> Create(const std::string& path,
                                                        const PendingFileOptions& options = {});
  PendingFile(PendingFile&& other) noexcept;
  PendingFile& operator=(PendingFile&&) = delete;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  // Closes the file; an unpublished temporary is removed.
  ~PendingFile();

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Where the data is now: PATH once published; a hidden file has no name before.
  std::string WhereNow() const;

  // Writes all of data (retrying short writes and EINTR).
  std::expected<void, std::string> WriteAll(const char* data, size_t len);
  // Puts the file at PATH (fsync first when `sync`). The fd stays open until destruction or
  // Release(). On failure the data is under the visible temporary name WhereNow() says
  // until destruction removes it (Release() keeps it).
  std::expected<void, std::string> Publish(bool sync);
  // Gives up the fd without closing it (a thread may still write to it) and keeps an
  // unpublished temporary.
  void Release();

 private:
  PendingFile(std::string path, std::string base, int dir_fd, int fd, std::string temp_name);
  std::expected<void, std::string> LinkHidden();

  std::string path_;       // as given
  std::string base_;       // its last component
  int dir_fd_ = -1;        // its directory (O_PATH)
  int fd_ = -1;            // the file
  std::string temp_name_;  // in dir_fd_; empty while hidden
  bool published_ = false;
  bool keep_ = false;  // Release(): the temporary outlives this object
  std::function<std::string(int)> temp_name_fn_;
};

}  // namespace snare::util

#endif  // SNARE_UTIL_PENDING_FILE_H_
