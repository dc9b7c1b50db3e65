// Writing result files so that readers never see half of one: a temporary file in the same
// directory, fsync, rename.
#ifndef SNARE_UTIL_ATOMIC_FILE_H_
#define SNARE_UTIL_ATOMIC_FILE_H_

#include <expected>
#include <string>
#include <string_view>

namespace snare::util {

std::expected<void, std::string> WriteFileAtomically(const std::string& path,
                                                     std::string_view contents);
// Fails with a message when path's directory does not exist or is not writable.
std::expected<void, std::string> CheckWritableDirectory(const std::string& path);

}  // namespace snare::util

#endif  // SNARE_UTIL_ATOMIC_FILE_H_
