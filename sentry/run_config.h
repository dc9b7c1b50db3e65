// What `snare run` was asked to do, parsed (cmd/run_command.cc) and checked.
#ifndef SNARE_SENTRY_RUN_CONFIG_H_
#define SNARE_SENTRY_RUN_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/policy_table.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sentry {

struct RunConfig {
  enum class StatsFormat { kNone, kTable, kJson };
  StatsFormat stats = StatsFormat::kNone;
  std::string stats_file;  // empty: stderr
  bool trace = false;
  std::string trace_file;  // empty: stderr
  policy::PolicyTable policy;
  std::string profile = "sandbox";  // the name it came from, for messages and stats
  sandbox::SandboxSpec sandbox;
  uint32_t spin_iterations = 2000;
  bool patch = false;         // systrap: syscall patching (platform/systrap/stub/site_patcher.h)
  uint32_t patch_after = 16;  // a site is patched at this trap (1: its first)
  bool patch_after_given = false;  // --patch-after: kept on crowded CPUs too
  bool all_to_sentry = false;      // patched calls ask the sentry too
  // RunGuest ends the process once its outputs are written (snare run's own process): the
  // kernel's teardown then frees the shared region, the fibers and the heap in one go.
  bool end_process = false;
  // CLOCK_MONOTONIC when snare started (0: unknown): --stats tells how long the guest's first
  // call took to come.
  uint64_t started_ns = 0;
  std::vector<std::string> argv;  // PROG ARGS...
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_RUN_CONFIG_H_
