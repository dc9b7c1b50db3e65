// stress-ng's stressors natively and under inproc, systrap and systrap with --patch (the trace
// profile: interposition alone, the same files as natively). The row's value is the bogo ops
// per second (real time) that stress-ng reports; its params hold the exit status, so a
// stressor that fails under snare shows in the table instead of stopping the bench.
#include <filesystem>
#include <memory>
#include <regex>

#include "bench/suites.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

constexpr const char* kStressors[] = {
    "fork",       "clone",   "vfork",   "pthread", "signal",   "sigq",  "sigsuspend",
    "sigpending", "futex",   "mmap",    "mremap",  "pipe",     "epoll", "poll",
    "timer",      "timerfd", "eventfd", "dup",     "open",     "dir",   "rename",
    "link",       "fcntl",   "flock",   "sock",    "sendfile", "prctl", "rlimit"};
constexpr const char* kQuickStressors[] = {"fork", "pipe", "open"};

// bogo ops/s (real time) from stress-ng's --metrics-brief line of `stressor`.
std::expected<double, std::string> BogoOpsPerSecond(const std::string& output,
                                                    const std::string& stressor) {
  const std::regex line("metrc: \\[\\d+\\] " + stressor +
                        R"(\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+))");
  std::smatch m;
  if (!std::regex_search(output, m, line)) {
    return std::unexpected("no metrics line for " + stressor + " in: " + output.substr(0, 500));
  }
  return std::stod(m[1].str());
}

}  // namespace

void AddStressSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  if (!std::filesystem::exists("/usr/bin/stress-ng")) {
    context.Note("stress skipped: /usr/bin/stress-ng is missing (tools/setup.sh installs it)");
    return;
  }
  const bool quick = context.options().quick;
  const double seconds = quick ? 1 : 2;
  const std::string dir = context.ScratchDir() + "/stress";
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  context.Note("stress: stress-ng --STRESSOR 1 --timeout " + SecondsArg(seconds) +
               "s --metrics-brief --temp-path " + dir +
               " per run (sock on lo); the value is bogo ops/s in real time, snare under the trace "
               "profile");
  std::vector<std::string> stressors;
  if (quick) {
    stressors.assign(std::begin(kQuickStressors), std::end(kQuickStressors));
  } else {
    stressors.assign(std::begin(kStressors), std::end(kStressors));
  }
  for (const std::string& stressor : stressors) {
    std::vector<std::string> argv = {
        "/usr/bin/stress-ng",      "--" + stressor,   "1",           "--timeout",
        SecondsArg(seconds) + "s", "--metrics-brief", "--temp-path", dir};
    if (stressor == "sock") argv.insert(argv.end(), {"--sock-if", "lo"});
    for (const std::string platform : {"native", "systrap", "inproc", "systrap-patch"}) {
      std::vector<std::string> run = argv;
      if (platform != "native") {
        std::vector<std::string> flags;
        if (platform == "systrap-patch") flags.push_back("--patch");
        run = context.UnderSnare(platform == "inproc" ? "inproc" : "systrap", flags, argv);
      }
      BenchStep step;
      step.label = "stress " + stressor + " " + platform;
      step.figures = std::make_shared<std::map<std::string, std::vector<double>>>();
      auto figures = step.figures;
      step.measure = [run, stressor, figures]() -> std::expected<std::vector<double>, std::string> {
        util::SubprocessOptions options;
        options.merge_stderr = true;
        options.timeout = std::chrono::seconds(120);
        const util::SubprocessResult r = util::RunSubprocess(run, options);
        if (!r.start_error.empty()) return std::unexpected(r.start_error);
        (*figures)["exit_status"].push_back(r.status);
        auto rate = BogoOpsPerSecond(r.stdout_data, stressor);
        // A failed stressor may print no metrics: 0 then, with its status beside it.
        if (!rate && r.status == 0) return std::unexpected(rate.error());
        return std::vector<double>{rate.value_or(0)};
      };
      step.row = {"stress", stressor, platform, {}, 0, "bogo-ops/s", {}};
      if (platform != "native") step.row.params["profile"] = BenchContext::ProfileOf({});
      step.max_reps = quick ? 1 : 1 << 30;
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
