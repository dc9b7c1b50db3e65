// Seccomp filters for the in-process rungs of the ladder: a 16-rule libseccomp filter
// whose action for the measured syscalls is ALLOW, ERRNO or TRAP (the signal floor, with
// an empty SIGSYS handler that sets the result).
#ifndef SNARE_BENCH_TRAP_FILTER_H_
#define SNARE_BENCH_TRAP_FILTER_H_

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace snare::bench {

enum class FilterMode { kNone, kAllow, kErrno, kTrap };

std::expected<FilterMode, std::string> ParseFilterMode(std::string_view name);

// Installs the filter (and, for kTrap, the empty SIGSYS handler) in the calling process.
// Filters cannot be removed: one process per mode.
std::expected<void, std::string> InstallTrapFilter(FilterMode mode, const std::vector<int>& nrs);

}  // namespace snare::bench

#endif  // SNARE_BENCH_TRAP_FILTER_H_
