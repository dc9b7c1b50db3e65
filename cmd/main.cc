// snare: run Linux programs with every syscall trapped and handed to a sentry, and measure
// what that costs. One file per subcommand in this folder.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/bench_command.h"
#include "cmd/lab_command.h"
#include "cmd/report_command.h"
#include "cmd/run_command.h"

// The git revision snare was built from (//results:build_revision, stamped).
extern const char kSnareRevision[];

namespace {

constexpr const char* kUsage =
    "usage: snare COMMAND ...\n"
    "commands:\n"
    "  run     run a program with its syscalls interposed (snare run --help)\n"
    "  bench   measure what a trapped syscall costs on this machine (snare bench --help)\n"
    "  report  show stored benchmark runs, plots, comparisons (snare report --help)\n"
    "  lab     build, boot and compare the stock and patched kernels (snare lab --help)\n"
    "  help COMMAND  that command's options; --version: the revision snare was built from\n";

// The command line a run is stored with.
std::string CommandLine(int argc, char** argv) {
  std::string line = "snare";
  for (int i = 1; i < argc; ++i) line += std::string(" ") + argv[i];
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string_view command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "--version" || command == "version") {
    printf("snare %s\n", kSnareRevision);
    return 0;
  }
  // `snare help run` is `snare run --help`.
  if (command == "help") {
    if (args.empty()) {
      fputs(kUsage, stdout);
      return 0;
    }
    command = argv[2];
    args = {"--help"};
  }
  if (command == "run") return snare::cmd::RunCommand(args);
  if (command == "bench") return snare::cmd::BenchCommand(args, CommandLine(argc, argv));
  if (command == "report") return snare::cmd::ReportCommand(args);
  if (command == "lab") return snare::cmd::LabCommand(args, CommandLine(argc, argv));
  fprintf(stderr, "snare: unknown command '%s'\n%s", std::string(command).c_str(), kUsage);
  return 2;
}
