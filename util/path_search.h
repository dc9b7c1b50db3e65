// Looking a program up in $PATH the way a shell does.
#ifndef SNARE_UTIL_PATH_SEARCH_H_
#define SNARE_UTIL_PATH_SEARCH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace snare::util {

// What a shell searches when PATH is unset.
inline constexpr const char* kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

// "DIR/name" for each entry of `path` in order; an empty entry means the current directory.
std::vector<std::string> PathCandidates(std::string_view name, std::string_view path);

// The first candidate that is a regular file the caller may execute.
std::optional<std::string> FindExecutable(std::string_view name, std::string_view path);

}  // namespace snare::util

#endif  // SNARE_UTIL_PATH_SEARCH_H_
