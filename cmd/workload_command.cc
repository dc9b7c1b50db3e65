#include "cmd/workload_command.h"

#include "bench/workload_programs.h"
#include "cmd/command_line.h"

namespace snare::cmd {

int WorkloadCommand(const std::vector<std::string>& args) {
  CLI::App app("The programs snare bench measures (internal).", "snare-workload");
  SetUpApp(app, "snare-workload PROGRAM ARGS... (see bench/workload_programs.h)");
  app.require_subcommand(1);
  std::string mode, subject, name;
  long calls = 0;
  int max_depth = 0, step = 1, tasks = 1, threads = 1;
  double seconds = 0;

  auto* trap = app.add_subcommand("trap-loop", "CALLS syscalls under Google Benchmark");
  trap->add_option("MODE", mode, "native, allow, errno or sigsys")->required();
  trap->add_option("SUBJECT", subject, "getppid, read4k or openat-close")->required();
  trap->add_option("CALLS", calls)->required()->check(CLI::Range(1L, 1'000'000'000L));

  auto* depth = app.add_subcommand("depth-sweep", "the signal floor at each namespace depth");
  depth->add_option("MAX_DEPTH", max_depth)->required()->check(CLI::Range(0, 1000));
  depth->add_option("STEP", step)->required()->check(CLI::Range(1, 32));
  depth->add_option("CALLS", calls)->required()->check(CLI::Range(1L, 100'000'000L));

  auto* contention = app.add_subcommand("contention", "TASKS processes trapping at once");
  contention->add_option("MODE", mode, "same-ns, sibling-ns or distinct-uid")->required();
  contention->add_option("TASKS", tasks)->required()->check(CLI::Range(1, 1024));
  contention->add_option("SECONDS", seconds)->required()->check(CLI::Range(1e-9, 3600.0));

  auto* seed = app.add_subcommand("seed", "a seed thread's workload in TASKS tasks");
  seed->add_option("NAME", name)->required();
  seed->add_option("TASKS", tasks)->required()->check(CLI::Range(1, 1024));
  seed->add_option("SECONDS", seconds)->required()->check(CLI::Range(1e-9, 3600.0));

  auto* alive = app.add_subcommand("threads", "N threads alive at once");
  alive->add_option("N", threads)->required()->check(CLI::Range(1, 4000));

  long rounds = 0;
  auto* handoff = app.add_subcommand("handoff", "a cache line's round trip between two CPUs");
  handoff->add_option("ROUNDS", rounds)->required()->check(CLI::Range(1L, 1'000'000'000L));

  if (auto parsed = ParseArgs(app, args); !parsed) return Report(parsed.error());
  if (trap->parsed()) return bench::RunTrapLoop(mode, subject, calls);
  if (depth->parsed()) return bench::RunDepthSweepProgram(max_depth, step, calls);
  if (contention->parsed()) return bench::RunContentionProgram(mode, tasks, seconds);
  if (seed->parsed()) return bench::RunSeedProgram(name, tasks, seconds);
  if (handoff->parsed()) return bench::RunHandoffProgram(rounds);
  return bench::RunThreadsProgram(threads);
}

}  // namespace snare::cmd
