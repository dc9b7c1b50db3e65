#include "util/atomic_file.h"

namespace snare::util {

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
