// In-process measurements behind the ucount sweeps: the signal floor (a SIGSYS-trapped
// getppid with an empty handler) at increasing user-namespace depth, and many processes
// trapping at once in three ucount-sharing modes.
#ifndef SNARE_BENCH_TRAP_SWEEPS_H_
#define SNARE_BENCH_TRAP_SWEEPS_H_

#include <expected>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace snare::bench {

inline constexpr int kMaxUserNamespaceDepth = 32;  // the kernel's nesting limit

// How many user namespaces lie between the caller's and the initial one.
int CallerUserNamespaceDepth();

struct DepthPoint {
  int depth;  // levels added by the sweep (absolute depth: caller's + this)
  double ns_per_trap;
};

// In the calling process (which it nests: run it in a child): measures, then enters one
// more user namespace (unshare + uid/gid maps), up to max_depth levels, every `step`.
std::expected<std::vector<DepthPoint>, std::string> RunDepthSweep(int max_depth, int step,
                                                                  long calls);

enum class ContentionMode { kSameNamespace, kSiblingNamespaces, kDistinctUids };
std::expected<ContentionMode, std::string> ParseContentionMode(std::string_view name);
std::string_view ContentionModeName(ContentionMode mode);

// `tasks` processes, one per CPU, each trapping getppid for `seconds`; traps/s per task.
std::expected<std::vector<double>, std::string> RunContention(ContentionMode mode, int tasks,
                                                              double seconds);

}  // namespace snare::bench

#endif  // SNARE_BENCH_TRAP_SWEEPS_H_
