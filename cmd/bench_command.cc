#include "cmd/bench_command.h"

#include <filesystem>
#include <optional>
#include <set>

#include "bench/bench_run.h"
#include "bench/syscall_subject.h"
#include "bench/trap_sweeps.h"

namespace snare::cmd {
namespace {

constexpr const char* kUsage =
    "snare bench [--quick] [--db=PATH] [--suites=LIST] [--rungs=LIST] [--syscalls=LIST]\n"
    "                   [--max-depth=N] [--depth-step=N] [--max-tasks=N] [--reps=N] [--json]\n"
    "                   [--cpython-modules=LIST] [--cpython-logs=DIR]";

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::expected<bench::BenchOptions, ParseExit> ParseBenchArgs(const std::vector<std::string>& args) {
  CLI::App app(
      "Measures what a trapped syscall costs on this machine and how much of it is the "
      "kernel's signal accounting; stores the run and prints its report.",
      "snare bench");
  SetUpApp(app, kUsage);
  bench::BenchOptions o;
  std::string suites, rungs, subjects, cpython_modules;
  app.add_flag("--quick", o.quick, "fewer repetitions and points; under a minute on 2 cores");
  app.add_option("--db", o.db, "the results database (default ~/.local/share/snare/results.db)")
      ->option_text("PATH");
  app.add_option("--suites", suites,
                 "comma-separated: " + Join(bench::SuiteNames()) +
                     " (default: all but cpython, which takes hours)")
      ->option_text("LIST");
  app.add_option("--rungs", rungs, "ladder rungs: " + Join(bench::RungNames()) + " (default: all)")
      ->option_text("LIST");
  app.add_option("--syscalls", subjects,
                 "ladder syscalls: " + Join(bench::SyscallSubject::Names()) + " (default: all)")
      ->option_text("LIST");
  app.add_option("--max-depth", o.max_depth, "deepest user namespace of the depth sweep (<= 32)")
      ->option_text("N");
  app.add_option("--depth-step", o.depth_step, "depth sweep step (1..32)")->option_text("N");
  app.add_option("--max-tasks", o.max_tasks, "most trapping tasks (default: online CPUs)")
      ->option_text("N");
  app.add_option("--reps", o.reps, "interleaved repetitions per point (default 7, 3 with --quick)")
      ->option_text("N");
  app.add_option("--cpython-modules", cpython_modules,
                 "the cpython suite's regression-test modules (default: all of " +
                     Join(bench::CpythonModules()) + ")")
      ->option_text("LIST");
  app.add_option("--cpython-logs", o.cpython_logs,
                 "keep each cpython run's -v output and junit XML in this directory")
      ->option_text("DIR");
  app.add_flag("--json", o.json, "print the stored run as JSON instead of Markdown");
  if (auto parsed = ParseArgs(app, args); !parsed) return std::unexpected(parsed.error());

  auto fail = [&](const std::string& m) { return std::unexpected(UsageError(app, m)); };
  if (!app.remaining().empty()) return fail("unknown argument '" + app.remaining()[0] + "'");
  if (app.count("--db") && o.db.empty()) return fail("--db needs a path");
  struct List {
    const char* flag;
    const std::string& value;
    const std::vector<std::string>& known;
    std::set<std::string>* out;
  };
  for (const List& l :
       {List{"--suites", suites, bench::SuiteNames(), &o.suites},
        List{"--rungs", rungs, bench::RungNames(), &o.rungs},
        List{"--syscalls", subjects, bench::SyscallSubject::Names(), &o.subjects}}) {
    if (!app.count(l.flag)) {
      l.out->insert(l.known.begin(), l.known.end());
      continue;
    }
    if (std::string error = CheckList(l.flag, l.value, l.known); !error.empty()) return fail(error);
    for (const std::string& item : SplitList(l.value)) l.out->insert(item);
  }
  if (!app.count("--suites")) o.suites.erase("cpython");
  if (app.count("--cpython-modules")) {
    if (std::string error =
            CheckList("--cpython-modules", cpython_modules, bench::CpythonModules());
        !error.empty()) {
      return fail(error);
    }
    o.cpython_modules = SplitList(cpython_modules);
  }
  if (!o.cpython_logs.empty()) {
    std::error_code error;
    std::filesystem::create_directories(o.cpython_logs, error);
    if (error)
      return fail("--cpython-logs: cannot make " + o.cpython_logs + ": " + error.message());
    o.cpython_logs = std::filesystem::absolute(o.cpython_logs).string();
  }
  auto range = [&](const char* flag, int v, int lo, int hi,
                   const std::string& why = "") -> std::optional<ParseExit> {
    if (v >= lo && v <= hi) return std::nullopt;
    return UsageError(app, std::string(flag) + " wants a number from " + std::to_string(lo) +
                               " to " + std::to_string(hi) + ", not '" + std::to_string(v) + "'" +
                               why);
  };
  for (auto bad : {range("--max-depth", o.max_depth, 0, bench::kMaxUserNamespaceDepth,
                         " (the kernel nests at most 32 user namespaces)"),
                   range("--depth-step", o.depth_step, 1, 32),
                   range("--max-tasks", o.max_tasks, app.count("--max-tasks") ? 1 : 0, 1024),
                   range("--reps", o.reps, 1, 1000)}) {
    if (bad) return std::unexpected(*bad);
  }
  if (o.quick && !app.count("--reps")) o.reps = 3;
  if (o.quick && !app.count("--depth-step")) o.depth_step = 4;
  return o;
}

int BenchCommand(const std::vector<std::string>& args, const std::string& command_line) {
  auto options = ParseBenchArgs(args);
  if (!options) return Report(options.error());
  return bench::RunBench(*options, command_line);
}

}  // namespace snare::cmd
