// `snare report`: parse the command line into bench::ReportOptions and render.
#ifndef SNARE_CMD_REPORT_COMMAND_H_
#define SNARE_CMD_REPORT_COMMAND_H_

#include <expected>
#include <string>
#include <vector>

#include "bench/report_run.h"
#include "cmd/command_line.h"

namespace snare::cmd {

std::expected<bench::ReportOptions, ParseExit> ParseReportArgs(
    const std::vector<std::string>& args);

int ReportCommand(const std::vector<std::string>& args);

}  // namespace snare::cmd

#endif  // SNARE_CMD_REPORT_COMMAND_H_
