// Reading a whole configuration file (a policy, a seccomp profile, an OCI config) with a
// bound on its size.
#ifndef SNARE_UTIL_SMALL_FILE_H_
#define SNARE_UTIL_SMALL_FILE_H_

#include <cstddef>
#include <expected>
#include <string>

namespace snare::util {

// The file's bytes, or why not: strerror's text, or "larger than N KiB".
std::expected<std::string, std::string> ReadSmallFile(const std::string& path, size_t max_bytes);

}  // namespace snare::util

#endif  // SNARE_UTIL_SMALL_FILE_H_
