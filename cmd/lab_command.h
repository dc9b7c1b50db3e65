// `snare lab`: parse the command line into lab::LabOptions and run the kernel lab.
#ifndef SNARE_CMD_LAB_COMMAND_H_
#define SNARE_CMD_LAB_COMMAND_H_

#include <expected>
#include <string>
#include <vector>

#include "cmd/command_line.h"
#include "kernel/lab/lab_run.h"

namespace snare::cmd {

std::expected<lab::LabOptions, ParseExit> ParseLabArgs(const std::vector<std::string>& args);

int LabCommand(const std::vector<std::string>& args, const std::string& command_line);

}  // namespace snare::cmd

#endif  // SNARE_CMD_LAB_COMMAND_H_
