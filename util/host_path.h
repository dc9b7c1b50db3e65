// Opening a host path that a guest may have prepared, in this run or an earlier one: no
// symbolic link is followed in any component (openat2's RESOLVE_NO_SYMLINKS), so a link the
// guest planted where the user named a directory is refused, never followed with the
// invoker's rights. The refusal names the link and where it points, so that the user can
// pass the real path instead.
#ifndef SNARE_UTIL_HOST_PATH_H_
#define SNARE_UTIL_HOST_PATH_H_

#include <sys/types.h>

#include <expected>
#include <string>

namespace snare::util {

// openat2(dirfd, path, flags, mode) with RESOLVE_NO_SYMLINKS (and RESOLVE_IN_ROOT when
// in_root: absolute paths and ".." stay below dirfd). The fd, or a message that starts with
// `path`: "PATH: COMPONENT is a symbolic link (to TARGET); snare follows no links in the paths
// it opens for a run ...".
std::expected<int, std::string> OpenWithoutSymlinks(int dirfd, const std::string& path, int flags,
                                                    mode_t mode = 0, bool in_root = false);

// Whether `path` exists with no link anywhere in it (opened O_PATH | flags and closed).
bool ExistsWithoutSymlinks(const std::string& path, int flags = 0);

// Which component of `path` (below dirfd) is a symbolic link, with its target:
// "COMPONENT is a symbolic link (to TARGET)"; empty when none is.
std::string DescribeSymlinkIn(int dirfd, const std::string& path);

}  // namespace snare::util

#endif  // SNARE_UTIL_HOST_PATH_H_
