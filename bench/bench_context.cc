#include "bench/bench_context.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "bench/workload_catalog.h"
#include "util/monotonic_clock.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

std::string SelfPath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "snare";
  return std::string(buf, static_cast<size_t>(n));
}

// A measurement that hangs must not hang the whole run.
util::SubprocessOptions MeasureOptions(int cpu) {
  util::SubprocessOptions o;
  o.cpu = cpu;
  o.timeout = std::chrono::seconds(1800);
  o.drain_after_exit = std::chrono::milliseconds(2000);
  return o;
}

}  // namespace

std::string SecondsArg(double seconds) { return fmt::format("{:g}", seconds); }

BenchContext::BenchContext(const BenchOptions& options) : options_(options), self_(SelfPath()) {
  long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  max_tasks_ = options_.max_tasks ? options_.max_tasks : static_cast<int>(cpus);
}

BenchContext::~BenchContext() {
  std::error_code ec;
  if (!scratch_.empty()) std::filesystem::remove_all(scratch_, ec);
  if (!memory_scratch_.empty() && memory_scratch_ != scratch_) {
    std::filesystem::remove_all(memory_scratch_, ec);
  }
}

std::vector<std::string> BenchContext::Workload(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {WorkloadExecutableBeside(self_)};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> BenchContext::UnderSnare(const std::string& platform,
                                                  const std::vector<std::string>& flags,
                                                  const std::vector<std::string>& argv) const {
  std::vector<std::string> out = {self_, "run", "--platform=" + platform};
  // Unless a step says otherwise it measures interposition alone (--profile=trace), as the
  // runs stored before the sandbox existed did.
  if (ProfileOf(flags) == "trace" &&
      std::none_of(flags.begin(), flags.end(),
                   [](const std::string& f) { return f.starts_with("--profile"); })) {
    out.push_back("--profile=trace");
  }
  // systrap patches by default; a rung measures the signal path unless it asks for --patch.
  if (platform == "systrap" && std::none_of(flags.begin(), flags.end(), [](const std::string& f) {
        return f == "--patch" || f == "--no-patch";
      })) {
    out.push_back("--no-patch");
  }
  out.insert(out.end(), flags.begin(), flags.end());
  out.push_back("--");
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

std::string BenchContext::ProfileOf(const std::vector<std::string>& flags) {
  std::string profile = "trace";
  for (const std::string& f : flags) {
    if (f.starts_with("--profile=")) profile = f.substr(10);
  }
  return profile;
}

std::expected<nlohmann::json, std::string> BenchContext::RunJson(
    const std::vector<std::string>& argv, int cpu) {
  util::SubprocessResult r = util::RunSubprocess(argv, MeasureOptions(cpu));
  if (!r.start_error.empty()) return std::unexpected(r.start_error);
  if (r.timed_out) return std::unexpected(std::string("timed out after 1800 s"));
  if (r.status != 0) {
    return std::unexpected("exited with status " + std::to_string(r.status) + ": " + r.stderr_data);
  }
  size_t last = r.stdout_data.find_last_of('{');
  if (last == std::string::npos) return std::unexpected("no result in output: " + r.stdout_data);
  auto j = nlohmann::json::parse(r.stdout_data.substr(last), nullptr, false);
  if (j.is_discarded()) return std::unexpected("unreadable result: " + r.stdout_data);
  return j;
}

std::expected<double, std::string> BenchContext::RunTimed(const std::vector<std::string>& argv,
                                                          bool keep_stdout) {
  util::SubprocessOptions options = MeasureOptions(-1);
  options.keep_stdout = keep_stdout;
  const double t0 = util::MonotonicSeconds();
  util::SubprocessResult r = util::RunSubprocess(argv, options);
  const double ms = (util::MonotonicSeconds() - t0) * 1e3;
  if (!r.start_error.empty()) return std::unexpected(r.start_error);
  if (r.status != 0) {
    return std::unexpected("exited with status " + std::to_string(r.status) + ": " +
                           r.stderr_data.substr(0, 500));
  }
  return ms;
}

void BenchContext::Note(const std::string& note) {
  if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
}

const std::string& BenchContext::ScratchDir() {
  if (scratch_.empty()) {
    std::string templ = "/tmp/snare-bench-XXXXXX";
    if (mkdtemp(templ.data())) scratch_ = templ;
  }
  return scratch_;
}

const std::string& BenchContext::MemoryScratchDir() {
  if (memory_scratch_.empty()) {
    std::string templ = "/dev/shm/snare-bench-XXXXXX";
    memory_scratch_ = mkdtemp(templ.data()) ? templ : ScratchDir();
  }
  return memory_scratch_;
}

}  // namespace snare::bench
