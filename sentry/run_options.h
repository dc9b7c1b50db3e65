// `snare run` command line.
#ifndef SNARE_SENTRY_RUN_OPTIONS_H_
#define SNARE_SENTRY_RUN_OPTIONS_H_

#include <cstdint>
#include <expected>
#include <string>
#include <utility>
#include <vector>

#include "sentry/syscall_table.h"

namespace snare {

struct RunOptions {
  std::string platform = "systrap";
  enum class StatsFormat { kNone, kTable, kJson } stats = StatsFormat::kNone;
  std::string stats_file;  // empty: stderr
  bool trace = false;
  std::string trace_file;  // empty: stderr
  // (syscall number, disposition, errno) overrides in command-line order.
  struct Override {
    int nr;
    Disposition disposition;
    int err;
  };
  std::vector<Override> overrides;
  uint32_t spin_iterations = 2000;
  std::vector<std::string> argv;  // PROG ARGS...
};

inline constexpr const char* kRunUsage =
    "usage: snare run [--platform=systrap|inproc] [--stats[=table|json]] [--stats-file=PATH]\n"
    "                 [--trace[=PATH]] [--deny=SYSCALL[:ERRNO]]... [--kill=SYSCALL]...\n"
    "                 [--spin=N] [--] PROG [ARGS...]\n";

// args: everything after "run". Errors are messages for the user (exit status 2).
std::expected<RunOptions, std::string> ParseRunOptions(const std::vector<std::string>& args);

}  // namespace snare

#endif  // SNARE_SENTRY_RUN_OPTIONS_H_
