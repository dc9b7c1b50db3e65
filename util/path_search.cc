#include "util/path_search.h"

#include <sys/stat.h>
#include <unistd.h>

namespace snare::util {

std::vector<std::string> PathCandidates(std::string_view name, std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string_view::npos) end = path.size();
    std::string dir(path.substr(start, end - start));
    out.push_back((dir.empty() ? std::string(".") : dir) + "/" + std::string(name));
    start = end + 1;
  }
  return out;
}

std::optional<std::string> FindExecutable(std::string_view name, std::string_view path) {
  for (const std::string& candidate : PathCandidates(name, path)) {
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace snare::util
