// `snare report`: renders a stored run (Markdown, JSON, plots) or compares two.
#ifndef SNARE_BENCH_REPORT_COMMAND_H_
#define SNARE_BENCH_REPORT_COMMAND_H_

#include <string>
#include <vector>

namespace snare::bench {

inline constexpr const char* kReportUsage =
    "usage: snare report [--db=PATH] [RUN_ID] [--json] [--plots=DIR [--format=png|svg]]\n"
    "       snare report [--db=PATH] --compare=RUN_A,RUN_B\n"
    "       snare report [--db=PATH] --list\n"
    "  RUN_ID defaults to the newest run.\n";

int RunReportCommand(const std::vector<std::string>& args);

}  // namespace snare::bench

#endif  // SNARE_BENCH_REPORT_COMMAND_H_
