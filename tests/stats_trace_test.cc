// --stats=json counts calls and errors per syscall, --trace shows denied calls, and
// --deny / --kill change what the guest sees.
#include <sched.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The "syscalls" entry named `name`, or null.
json FindSyscall(const json& stats, const std::string& name) {
  if (!stats.contains("syscalls") || !stats["syscalls"].is_array()) return nullptr;
  for (const json& entry : stats["syscalls"]) {
    if (entry.value("name", "") == name) return entry;
  }
  return nullptr;
}

class StatsTraceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    auto loop = GuestPath("getppid_loop");
    ASSERT_TRUE(loop.has_value()) << loop.error();
    getppid_loop_ = *loop;
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    prefix_ = TestTmpDir() + "/" + name;
  }

  // Runs `snare run --platform=P FLAGS... -- getppid_loop N`.
  util::SubprocessResult RunLoop(const std::vector<std::string>& flags, int n) {
    const std::string& param = GetParam();
    argv_ = {snare_, "run", "--platform=" + param.substr(0, param.find(':')),
             "--profile=" + param.substr(param.find(':') + 1)};
    argv_.insert(argv_.end(), flags.begin(), flags.end());
    argv_.insert(argv_.end(), {"--", getppid_loop_, std::to_string(n)});
    util::SubprocessOptions options;
    options.timeout = std::chrono::seconds(60);
    return util::RunSubprocess(argv_, options);
  }

  // Parses the JSON stats file, failing the test when it is missing or malformed.
  json ReadStats(const std::string& path) {
    std::string text = ReadFile(path);
    EXPECT_FALSE(text.empty()) << "no stats written to " << path;
    json stats = json::parse(text, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(stats.is_discarded()) << "not JSON:\n" << text;
    return stats;
  }

  std::string Repro() const { return "reproduce: " + util::ShellQuote(ForDisplay(argv_)); }

  std::string snare_;
  std::string getppid_loop_;
  std::string prefix_;
  std::vector<std::string> argv_;
};

TEST_P(StatsTraceTest, JsonStatsCountCalls) {
  const std::string stats_path = prefix_ + ".json";
  util::SubprocessResult r = RunLoop({"--stats=json", "--stats-file=" + stats_path}, 1000);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "");
  json stats = ReadStats(stats_path);
  ASSERT_FALSE(stats.is_discarded());
  SCOPED_TRACE("stats: " + stats.dump(1).substr(0, 6000));
  EXPECT_EQ(stats.value("platform", ""), GetParam().substr(0, GetParam().find(':')));

  json getppid = FindSyscall(stats, "getppid");
  ASSERT_TRUE(getppid.is_object()) << "no getppid entry in \"syscalls\"";
  EXPECT_EQ(getppid.value("nr", -1), 110);
  EXPECT_GE(getppid.value("calls", 0), 1000);
  EXPECT_EQ(getppid.value("errors", -1), 0);
  ASSERT_TRUE(getppid.contains("trap_ns_per_call"));
  EXPECT_TRUE(getppid["trap_ns_per_call"].is_number());
  // The stub times its traps only when --stats asks, and then every one of them.
  EXPECT_GT(getppid["trap_ns_per_call"].get<double>(), 0.0);

  ASSERT_TRUE(stats.contains("total") && stats["total"].is_object());
  int64_t sum = 0;
  for (const json& entry : stats["syscalls"]) sum += entry.value("calls", int64_t{0});
  EXPECT_GE(stats["total"].value("calls", int64_t{0}), 1000);
  EXPECT_EQ(stats["total"].value("calls", int64_t{-1}), sum) << "total.calls is not the sum";
}

// The sentry's CPU and the guest's, both from the kernel's accounting: a guest that traps
// 200,000 times uses CPU, and a systrap sentry answering it does too.
TEST_P(StatsTraceTest, JsonStatsReportSentryAndGuestCpu) {
  const std::string stats_path = prefix_ + ".json";
  util::SubprocessResult r = RunLoop({"--stats=json", "--stats-file=" + stats_path}, 200000);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  json stats = ReadStats(stats_path);
  ASSERT_FALSE(stats.is_discarded());
  SCOPED_TRACE("stats: " + stats.dump(1).substr(0, 3000));
  ASSERT_TRUE(stats.contains("guest") && stats.contains("sentry"));
  const double guest = stats["guest"].value("cpu_s", -1.0);
  const double sentry = stats["sentry"].value("cpu_s", -1.0);
  EXPECT_GT(guest, 0.02);
  EXPECT_GE(sentry, 0.0);
  EXPECT_NEAR(stats["sentry"].value("cpu_per_guest_cpu", -1.0), sentry / guest, 1e-6);
  if (GetParam().rfind("systrap", 0) == 0) {
    EXPECT_GT(sentry, 0.01);  // it answered every trap
    EXPECT_TRUE(stats["sentry"].contains("sleeps"));
    EXPECT_GE(stats["sentry"].value("cpu_moves", int64_t{-1}), 0);
    EXPECT_GE(stats["sentry"].value("crowded_reads", int64_t{-1}), 0);
    // The adaptive window needs a second CPU (0: it does not spin beyond the fixed count).
    cpu_set_t cpus;
    ASSERT_EQ(sched_getaffinity(0, sizeof(cpus), &cpus), 0);
    const int64_t window = stats["sentry"].value("spin_window_ns", int64_t{-1});
    if (CPU_COUNT(&cpus) > 1) {
      EXPECT_GE(window, 50000);
      EXPECT_LE(window, 2000000);
    } else {
      EXPECT_EQ(window, 0);
    }
  } else {
    EXPECT_FALSE(stats["sentry"].contains("sleeps"));  // inproc's sentry answers nothing
  }
}

// Where a short program's time under snare goes: its launch (snare's start to the guest's
// first call at the sentry) and its end (the last process reaped), both within the run as the
// caller timed it, the launch before the 20,000 calls and the reaping after them.
TEST_P(StatsTraceTest, JsonStatsTellWhenTheFirstCallCameAndTheGuestWasReaped) {
  const std::string stats_path = prefix_ + ".json";
  const auto start = std::chrono::steady_clock::now();
  util::SubprocessResult r = RunLoop({"--stats=json", "--stats-file=" + stats_path}, 20000);
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  json stats = ReadStats(stats_path);
  ASSERT_FALSE(stats.is_discarded());
  SCOPED_TRACE("stats: " + stats.dump(1).substr(0, 3000));
  ASSERT_TRUE(stats.contains("sentry"));
  const json& sentry = stats["sentry"];
  if (GetParam().rfind("systrap", 0) != 0) {
    EXPECT_FALSE(sentry.contains("first_call_ms"));  // inproc's sentry is asked nothing
    return;
  }
  const double first = sentry.value("first_call_ms", -1.0);
  const double reaped = sentry.value("reaped_ms", -1.0);
  EXPECT_GT(first, 0.0);
  EXPECT_GT(reaped, first);
  EXPECT_LT(reaped, wall_ms);
  // The calls ran in between: at least the guest's own CPU time apart.
  EXPECT_GE(reaped - first, stats["guest"].value("cpu_s", 0.0) * 1e3 * 0.5);
}

// Beside more busy processes than there are CPUs the sentry finds the CPUs crowded and
// sleeps between calls instead of spinning (it would only take CPU time from the guest).
TEST_P(StatsTraceTest, TheSentryFindsTheCpusCrowdedBesideBusyProcesses) {
  cpu_set_t cpus;
  ASSERT_EQ(sched_getaffinity(0, sizeof(cpus), &cpus), 0);
  if (GetParam().rfind("systrap", 0) != 0 || CPU_COUNT(&cpus) < 2) {
    GTEST_SKIP() << "only systrap's sentry spins, and only with two CPUs or more";
  }
  std::vector<std::unique_ptr<util::Subprocess>> hogs;
  for (int i = 0; i < CPU_COUNT(&cpus) + 1; ++i) {
    hogs.push_back(std::make_unique<util::Subprocess>());
    ASSERT_TRUE(hogs.back()->Start({"/bin/sh", "-c", "while :; do :; done"}));
  }
  const std::string stats_path = prefix_ + ".json";
  util::SubprocessResult r = RunLoop({"--stats=json", "--stats-file=" + stats_path}, 20000);
  hogs.clear();  // kills them
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  json stats = ReadStats(stats_path);
  ASSERT_FALSE(stats.is_discarded());
  SCOPED_TRACE("stats: " + stats.dump(1).substr(0, 3000));
  EXPECT_GE(stats["sentry"].value("crowded_reads", int64_t{-1}), 1);
  EXPECT_GE(stats["sentry"].value("sleeps", int64_t{-1}), 1);
}

TEST_P(StatsTraceTest, DeniedCallsAreErrorsAndTraced) {
  const std::string stats_path = prefix_ + ".json";
  const std::string trace_path = prefix_ + ".trace";
  util::SubprocessResult r = RunLoop({"--deny=getppid:EPERM", "--stats=json",
                                      "--stats-file=" + stats_path, "--trace=" + trace_path},
                                     50);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);

  json stats = ReadStats(stats_path);
  ASSERT_FALSE(stats.is_discarded());
  json getppid = FindSyscall(stats, "getppid");
  ASSERT_TRUE(getppid.is_object()) << "no getppid entry in " << stats.dump(1);
  EXPECT_EQ(getppid.value("calls", 0), 50);
  EXPECT_EQ(getppid.value("errors", 0), getppid.value("calls", -1)) << getppid.dump();

  std::string trace = ReadFile(trace_path);
  size_t denied = 0;
  const std::string line = "getppid() = -1 EPERM (Operation not permitted) <denied>\n";
  for (size_t pos = 0; (pos = trace.find(line, pos)) != std::string::npos; pos += line.size()) {
    ++denied;
  }
  EXPECT_EQ(denied, 50u) << "trace " << trace_path << " (first 3000 bytes):\n"
                         << trace.substr(0, 3000);
  // The line format: "[TID] getppid() = ...".
  size_t first = trace.find(line);
  ASSERT_NE(first, std::string::npos);
  size_t start = trace.rfind('\n', first);
  start = start == std::string::npos ? 0 : start + 1;
  EXPECT_EQ(trace[start], '[') << trace.substr(start, line.size() + 16);
}

TEST_P(StatsTraceTest, DenyWithOtherErrno) {
  const std::string trace_path = prefix_ + ".trace";
  util::SubprocessResult r = RunLoop({"--deny=getppid:ENOSYS", "--trace=" + trace_path}, 1);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(ReadFile(trace_path).find("getppid() = -1 ENOSYS (Function not implemented) <denied>"),
            std::string::npos)
      << ReadFile(trace_path).substr(0, 3000);
}

TEST_P(StatsTraceTest, TraceToStderr) {
  util::SubprocessResult r = RunLoop({"--trace"}, 3);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "");
  size_t n = 0;
  for (size_t pos = 0; (pos = r.stderr_data.find("] getppid() = ", pos)) != std::string::npos;
       ++pos) {
    ++n;
  }
  EXPECT_EQ(n, 3u);
}

TEST_P(StatsTraceTest, KillOnSyscallIsSigsys) {
  util::SubprocessResult r = RunLoop({"--kill=getppid"}, 10);
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 128 + SIGSYS);
}

INSTANTIATE_TEST_SUITE_P(Platforms, StatsTraceTest,  // "PLATFORM:PROFILE": both platforms under the
                                                     // default profile and under --profile=trace.
                         ::testing::Values("systrap:sandbox", "systrap:trace", "inproc:sandbox",
                                           "inproc:trace"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           name[name.find(':')] = '_';
                           return name;
                         });

}  // namespace
}  // namespace snare::tests
