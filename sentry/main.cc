// snare: run Linux programs with every syscall trapped and handed to a sentry.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_command.h"
#include "bench/bench_options.h"
#include "bench/report_command.h"
#include "bench/workload_command.h"
#include "kernel/lab/lab_command.h"
#include "sentry/run_command.h"
#include "sentry/run_options.h"

namespace {

constexpr const char* kUsage =
    "usage: snare COMMAND ...\n"
    "commands:\n"
    "  run     run a program with its syscalls interposed (snare run --help)\n"
    "  bench   measure what a trapped syscall costs on this machine (snare bench --help)\n"
    "  report  show stored benchmark runs, plots, comparisons (snare report --help)\n"
    "  lab     build, boot and compare the stock and patched kernels (snare lab --help)\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "run") {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      fputs(snare::kRunUsage, stdout);
      return 0;
    }
    auto options = snare::ParseRunOptions(args);
    if (!options) {
      fprintf(stderr, "snare run: %s\n%s", options.error().c_str(), snare::kRunUsage);
      return 2;
    }
    return snare::RunCommand(*options);
  }
  if (command == "bench") {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      fputs(snare::bench::kBenchUsage, stdout);
      return 0;
    }
    std::string line = "snare";
    for (int i = 1; i < argc; ++i) line += std::string(" ") + argv[i];
    return snare::bench::RunBenchCommand(args, line);
  }
  if (command == "report") {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      fputs(snare::bench::kReportUsage, stdout);
      return 0;
    }
    return snare::bench::RunReportCommand(args);
  }
  if (command == "lab") {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
      fputs(snare::lab::kLabUsage, args.empty() ? stderr : stdout);
      return args.empty() ? 2 : 0;
    }
    std::string line = "snare";
    for (int i = 1; i < argc; ++i) line += std::string(" ") + argv[i];
    return snare::lab::RunLabCommand(args, line);
  }
  if (command == snare::bench::kWorkloadCommand) return snare::bench::RunWorkloadCommand(args);
  fprintf(stderr, "snare: unknown command '%s'\n%s", command.c_str(), kUsage);
  return 2;
}
