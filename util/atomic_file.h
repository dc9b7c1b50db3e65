// Writing result files so that readers never see half of one, and so that whoever else can
// write the directory cannot redirect them: a temporary file with a random name in the same
// directory (O_CREAT|O_EXCL|O_NOFOLLOW: a symlink planted there is never followed), fsync,
// rename (a symlink planted at the target is replaced, not followed). See pending_file.h.
#ifndef SNARE_UTIL_ATOMIC_FILE_H_
#define SNARE_UTIL_ATOMIC_FILE_H_

#include <expected>
#include <string>
#include <string_view>

#include "util/pending_file.h"

namespace snare::util {

// Mode 0644 less the umask. `options` only for tests (temporary names to try).
std::expected<void, std::string> WriteFileAtomically(const std::string& path,
                                                     std::string_view contents,
                                                     const PendingFileOptions& options = {});

}  // namespace snare::util

#endif  // SNARE_UTIL_ATOMIC_FILE_H_
