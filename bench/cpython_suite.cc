// CPython's regression suite, one module at a time: `python3.11 -m test -v --junit-xml`
// natively, then under systrap, inproc and systrap --patch with the default (sandbox)
// profile, interleaved per module so all four see the same load. A row's value is the
// module's wall time; its params hold the passed/failed/skipped counts and the tests that
// passed natively but not on its platform ("lost").
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "bench/cpython_outcomes.h"
#include "bench/suites.h"
#include "util/monotonic_clock.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

// Debian's build, whose regression suite libpython3.11-testsuite installs (the python3 on
// $PATH may be another one).
constexpr const char* kPython = "/usr/bin/python3.11";
// A module that hangs fails (its XML is missing) instead of stopping the run.
constexpr int kModuleTimeoutS = 1500;
constexpr int kTestTimeoutS = 600;  // regrtest's own per-test watchdog

struct Platform {
  std::string name;
  std::vector<std::string> flags;  // of `snare run`; native runs have none
};

std::string Join(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : separator) + n;
  return out;
}

}  // namespace

void AddCpythonSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  if (access(kPython, X_OK) != 0 || access("/usr/lib/python3.11/test/regrtest.py", R_OK) != 0) {
    context.Note(std::string("cpython skipped: needs ") + kPython +
                 " and its regression suite (tools/setup.sh installs libpython3.11-testsuite)");
    return;
  }
  const BenchOptions& options = context.options();
  const std::vector<std::string>& modules =
      options.cpython_modules.empty() ? CpythonModules() : options.cpython_modules;
  const std::string dir = context.ScratchDir() + "/cpython";
  const std::string logs = options.cpython_logs;
  const std::vector<Platform> platforms = {
      {"native", {}},
      {"systrap", {"--profile=sandbox"}},
      {"inproc", {"--profile=sandbox"}},
      {"systrap-patch", {"--profile=sandbox", "--patch"}},
  };
  context.Note(fmt::format(
      "cpython: {} -m test -v --timeout={} --junit-xml FILE MODULE, as the invoking user "
      "natively and under `snare run --profile=sandbox` (working directory writable, /tmp "
      "private); one run per module and platform; lost: passed natively, not here",
      kPython, kTestTimeoutS));
  for (const std::string& module : modules) {
    // The native outcomes, which the module's later steps compare against.
    auto native = std::make_shared<TestOutcomes>();
    for (const Platform& platform : platforms) {
      const std::string work = dir + "/" + module + "-" + platform.name;
      const std::string xml = work + "/junit.xml";
      std::vector<std::string> argv = {
          kPython,       "-m", "test", "-v", fmt::format("--timeout={}", kTestTimeoutS),
          "--junit-xml", xml,  module};
      if (platform.name != "native") {
        argv = context.UnderSnare(platform.name == "inproc" ? "inproc" : "systrap", platform.flags,
                                  argv);
      }
      BenchStep step;
      step.label = "cpython " + module + " " + platform.name;
      step.figures = std::make_shared<std::map<std::string, std::vector<double>>>();
      step.texts = std::make_shared<std::map<std::string, std::string>>();
      auto figures = step.figures;
      auto texts = step.texts;
      const bool is_native = platform.name == "native";
      const std::string log = logs.empty() ? "" : logs + "/" + module + "-" + platform.name;
      step.measure = [argv, work, xml, log, is_native, native, figures,
                      texts]() -> std::expected<std::vector<double>, std::string> {
        std::error_code error;
        std::filesystem::remove_all(work, error);
        std::filesystem::create_directories(work, error);
        if (error) return std::unexpected("cannot make " + work + ": " + error.message());
        std::ofstream out;
        if (!log.empty()) out.open(log + ".log");
        util::SubprocessOptions o;
        o.cwd = work;
        o.timeout = std::chrono::seconds(kModuleTimeoutS);
        o.merge_stderr = true;
        o.keep_stdout = false;
        o.on_line = [&out](const std::string& line) {
          if (out.is_open()) out << line << "\n";
        };
        const double t0 = util::MonotonicSeconds();
        util::SubprocessResult r = util::RunSubprocess(argv, o);
        const double ms = (util::MonotonicSeconds() - t0) * 1e3;
        if (!r.start_error.empty()) return std::unexpected(r.start_error);
        if (!log.empty()) std::filesystem::copy_file(xml, log + ".xml", error);
        TestOutcomes outcomes;
        if (auto read = ReadJunitOutcomes(kPython, xml); read) {
          outcomes = std::move(*read);
        } else {
          // A crashed or killed run writes no XML: everything it ran is lost.
          (*texts)["xml"] = r.timed_out ? "missing (timed out)" : "missing";
        }
        (*texts)["status"] = std::to_string(r.status);
        (*figures)["passed"].push_back(static_cast<double>(outcomes.passed.size()));
        (*figures)["failed"].push_back(static_cast<double>(outcomes.failed.size()));
        (*figures)["skipped"].push_back(static_cast<double>(outcomes.skipped.size()));
        if (is_native) {
          *native = outcomes;
        } else {
          std::vector<std::string> lost = LostTests(*native, outcomes);
          (*figures)["lost"].push_back(static_cast<double>(lost.size()));
          (*texts)["lost_tests"] = Join(lost, " ");
        }
        return std::vector<double>{ms};
      };
      step.row = {"cpython", module, platform.name, {}, 0, "ms", {}};
      step.row.params["profile"] = is_native ? "native" : "sandbox";
      step.max_reps = 1;  // minutes per module: one run, the four platforms side by side
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
