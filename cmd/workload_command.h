// `snare-workload ...`: the programs snare bench measures (bench/workload_programs.h).
// Internal: snare bench starts them; their arguments are positional and checked.
#ifndef SNARE_CMD_WORKLOAD_COMMAND_H_
#define SNARE_CMD_WORKLOAD_COMMAND_H_

#include <string>
#include <vector>

namespace snare::cmd {

int WorkloadCommand(const std::vector<std::string>& args);

}  // namespace snare::cmd

#endif  // SNARE_CMD_WORKLOAD_COMMAND_H_
