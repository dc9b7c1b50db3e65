// Two real programs natively and under snare's default systrap run (--patch) while one CPU
// hog per allowed CPU runs beside them: the machine of a build or a CI job, where spinning
// for the other side's answer takes CPU from the thread that would give it.
#include <chrono>
#include <memory>
#include <thread>

#include "bench/suites.h"
#include "util/allowed_cpus.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

// A shell's busy loop per CPU, in process groups of their own; killed with the vector.
std::expected<std::vector<std::unique_ptr<util::Subprocess>>, std::string> StartHogs(int count) {
  std::vector<std::unique_ptr<util::Subprocess>> hogs;
  for (int i = 0; i < count; ++i) {
    auto hog = std::make_unique<util::Subprocess>();
    util::SubprocessOptions options;
    options.timeout = std::chrono::seconds(600);
    if (!hog->Start({"/bin/sh", "-c", "while :; do :; done"}, options)) {
      return std::unexpected(std::string("cannot start a CPU hog (/bin/sh)"));
    }
    hogs.push_back(std::move(hog));
  }
  // Running, not starting: the program meets them on every CPU.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  return hogs;
}

}  // namespace

void AddCrowdedSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  auto cpus = util::AllowedCpus();
  const int hogs = cpus ? static_cast<int>(cpus->size()) : 1;
  context.Note("crowded: " + std::to_string(hogs) +
               " CPU hogs (a shell's busy loop each) run beside every measured run");
  struct Program {
    std::string name;
    std::vector<std::string> argv;
  };
  const std::vector<Program> programs = {
      {"python3 -c pass", {"/usr/bin/python3", "-c", "pass"}},
      {"find /usr/include -name '*.h'", {"find", "/usr/include", "-name", "*.h"}},
  };
  for (const Program& program : programs) {
    for (const std::string platform : {"native", "systrap-patch"}) {
      const std::vector<std::string> argv =
          platform == "native" ? program.argv
                               : context.UnderSnare("systrap", {"--patch"}, program.argv);
      BenchStep step;
      step.label = "crowded " + program.name + " " + platform;
      step.measure = [argv, hogs]() -> std::expected<std::vector<double>, std::string> {
        auto running = StartHogs(hogs);
        if (!running) return std::unexpected(running.error());
        auto ms = BenchContext::RunTimed(argv, /*keep_stdout=*/false);
        if (!ms) return std::unexpected(ms.error());
        return std::vector<double>{*ms};
      };
      step.row = {"crowded", program.name, platform, {{"hogs", std::to_string(hogs)}}, 0, "ms", {}};
      step.max_reps = context.options().quick ? 3 : 7;
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
