// `snare run`: parse the command line into a sentry::RunConfig and run the guest.
#ifndef SNARE_CMD_RUN_COMMAND_H_
#define SNARE_CMD_RUN_COMMAND_H_

#include <expected>
#include <string>
#include <vector>

#include "cmd/command_line.h"
#include "platform/registry/platform_registry.h"
#include "sentry/run_config.h"

namespace snare::cmd {

struct RunArgs {
  std::string platform = std::string(platform::kDefaultPlatform);
  // The policy in it is the default policy, then the --policy file's rules, then --deny/--kill
  // in order, each rule covering its syscall's group of aliases.
  sentry::RunConfig config;
};

// args: everything after "run". PROG and its arguments are taken verbatim after the first
// argument that is not an option (or after "--").
std::expected<RunArgs, ParseExit> ParseRunArgs(const std::vector<std::string>& args);
// The same into *into, with no copy of the 82 KB policy table on the way (RunCommand's).
std::expected<void, ParseExit> ParseRunArgsInto(const std::vector<std::string>& args,
                                                RunArgs* into);

int RunCommand(const std::vector<std::string>& args);

}  // namespace snare::cmd

#endif  // SNARE_CMD_RUN_COMMAND_H_
