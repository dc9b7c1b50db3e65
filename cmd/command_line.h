// What every `snare` subcommand's parser shares: CLI11 with `--opt VALUE` and `--opt=VALUE`,
// `--help`, and one way of reporting a usage error (a message naming what was wrong, then
// where to look; exit status 2). CLI11 reports errors by exception; they end here.
#ifndef SNARE_CMD_COMMAND_LINE_H_
#define SNARE_CMD_COMMAND_LINE_H_

#include <CLI/CLI.hpp>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace snare::cmd {

// Why parsing did not produce options: --help (status 0, `text` for stdout) or a usage
// error (status 2, `text` for stderr).
struct ParseExit {
  int status = 2;
  std::string text;
};

// A CLI11 app for `snare NAME` whose help starts with `usage` ("snare run [OPTIONS] ...").
void SetUpApp(CLI::App& app, std::string usage);

// Parses args (everything after the subcommand's name).
std::expected<void, ParseExit> ParseArgs(CLI::App& app, const std::vector<std::string>& args);

// A usage error in the shared format: "snare NAME: MESSAGE\nUSAGE\n(snare NAME --help ...)".
ParseExit UsageError(const CLI::App& app, const std::string& message);

// Prints a ParseExit where it belongs and returns its status.
int Report(const ParseExit& exit);

// The items of a comma-separated list ("a,b" -> {"a", "b"}; "" -> {}).
std::vector<std::string> SplitList(const std::string& value);

// "" when every item of the comma-separated `value` is in `known`, else an error naming the
// first one that is not and the known names.
std::string CheckList(std::string_view flag, const std::string& value,
                      const std::vector<std::string>& known);

}  // namespace snare::cmd

#endif  // SNARE_CMD_COMMAND_LINE_H_
