// `snare bench`: parse the command line into bench::BenchOptions and measure.
#ifndef SNARE_CMD_BENCH_COMMAND_H_
#define SNARE_CMD_BENCH_COMMAND_H_

#include <expected>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "cmd/command_line.h"

namespace snare::cmd {

// args: everything after "bench".
std::expected<bench::BenchOptions, ParseExit> ParseBenchArgs(const std::vector<std::string>& args);

// command_line is what the run is stored with.
int BenchCommand(const std::vector<std::string>& args, const std::string& command_line);

}  // namespace snare::cmd

#endif  // SNARE_CMD_BENCH_COMMAND_H_
