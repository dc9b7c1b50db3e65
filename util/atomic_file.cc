#include "util/atomic_file.h"

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
                                                     std::string_view contents,
                                                     const PendingFileOptions& options) {
  auto file = PendingFile::Create(path, options);
  if (!file) return std::unexpected(file.error());
  if (auto written = file->WriteAll(contents.data(), contents.size()); !written) return written;
  // On failure the destructor removes the temporary.
  return file->Publish(/*sync=*/true);
}

}  // namespace snare::util
