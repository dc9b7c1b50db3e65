#include "cmd/report_command.h"

#include <cstdlib>

namespace snare::cmd {
namespace {

constexpr const char* kUsage =
    "snare report [--db=PATH] [RUN_ID] [--json] [--plots=DIR [--format=png|svg]]\n"
    "       snare report [--db=PATH] --compare=RUN_A,RUN_B\n"
    "       snare report [--db=PATH] --list";

bool ParseId(const std::string& s, int64_t* id) {
  char* end;
  long long v = strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || v <= 0) return false;
  *id = v;
  return true;
}

}  // namespace

std::expected<bench::ReportOptions, ParseExit> ParseReportArgs(
    const std::vector<std::string>& args) {
  CLI::App app("Shows stored `snare bench` and `snare lab` runs.", "snare report");
  SetUpApp(app, kUsage);
  bench::ReportOptions o;
  std::string run = "latest", compare;
  app.add_option("RUN_ID", run, "the run to show (default: the newest)");
  app.add_option("--db", o.db, "the results database (default ~/.local/share/snare/results.db)")
      ->option_text("PATH");
  app.add_flag("--json", o.json, "the run as JSON, rows and samples included");
  app.add_flag("--list", o.list, "every stored run, one line each");
  app.add_option("--plots", o.plots,
                 "also write PNG (or SVG) plots and their gnuplot sources to DIR")
      ->option_text("DIR");
  app.add_option("--format", o.format, "plot format: png or svg")->option_text("png|svg");
  app.add_option("--compare", compare, "two runs side by side, e.g. --compare=3,7")
      ->option_text("A,B");
  if (auto parsed = ParseArgs(app, args); !parsed) return std::unexpected(parsed.error());

  auto fail = [&](const std::string& m) { return std::unexpected(UsageError(app, m)); };
  if (!app.remaining().empty()) return fail("unknown argument '" + app.remaining()[0] + "'");
  if (app.count("--db") && o.db.empty()) return fail("--db needs a path");
  if (app.count("--plots") && o.plots.empty()) return fail("--plots needs a directory");
  if (o.format != "png" && o.format != "svg") return fail("--format is png or svg");
  if (run != "latest" && !ParseId(run, &o.id)) return fail("unknown argument '" + run + "'");
  if (app.count("--compare")) {
    const size_t comma = compare.find(',');
    if (comma == std::string::npos || !ParseId(compare.substr(0, comma), &o.compare_a) ||
        !ParseId(compare.substr(comma + 1), &o.compare_b)) {
      return fail("--compare wants two run ids, e.g. --compare=3,7");
    }
  }
  return o;
}

int ReportCommand(const std::vector<std::string>& args) {
  auto options = ParseReportArgs(args);
  if (!options) return Report(options.error());
  return bench::RunReport(*options);
}

}  // namespace snare::cmd
