// The sentry's memory does not grow over many short-lived guest processes, threads, fds and
// mappings: one snare run of stress-ng's fork, dup and mmap stressors beside a Python loop
// that starts and joins threads, with the resident set of snare's own processes (the sentry
// and the sandbox's init) sampled as it runs. After a warm-up, the peak of the last stretch
// may exceed the peak of the first stretch by at most a fifth plus 4 MiB (the sentry's memory
// follows how many guest threads live at once, which varies from run to run; a leak grows
// with how many have lived). The threads are Python's, not stress-ng's pthread stressor,
// which loses a race of its own under a slower thread start (see stress_ng_test.cc).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/proc_scan.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

constexpr int kRunSeconds = 15;
constexpr double kWarmUpSeconds = 3, kStretchSeconds = 4;

// VmRSS of `pid` in KiB (0 when it is gone).
long RssKib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  long value = 0;
  while (in >> key) {
    if (key == "VmRSS:") {
      in >> value;
      return value;
    }
    in.ignore(1 << 12, '\n');
  }
  return 0;
}

struct Sample {
  double at_s;
  long kib;
};

class SentryMemoryTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SentryMemoryTest, NoGrowthOverShortLivedChildrenThreadsFdsAndMaps) {
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();
  const std::string dir = MakeTempDir("sentry-memory");
  ASSERT_FALSE(dir.empty());
  chmod(dir.c_str(), 01777);
  std::vector<std::string> argv = {*snare, "run"};
  for (const std::string& f : PlatformFlags(GetParam())) argv.push_back(f);
  const std::string seconds_arg = std::to_string(kRunSeconds);
  // $1: the run's length in seconds. The shell's status is stress-ng's, or 1 when the
  // thread loop failed.
  const std::string script =
      "python3 -c \"$2\" \"$1\" & threads=$!\n"
      "stress-ng --fork 1 --dup 1 --mmap 1 --mmap-bytes 8M --metrics-brief -v "
      "--timeout \"$1\"s\n"
      "status=$?\n"
      "wait $threads || { echo 'error: the thread loop failed'; exit 1; }\n"
      "exit $status\n";
  const std::string thread_loop =
      "import sys, threading, time\n"
      "end = time.monotonic() + float(sys.argv[1])\n"
      "started = 0\n"
      "while time.monotonic() < end:\n"
      "    batch = [threading.Thread(target=lambda: None) for _ in range(16)]\n"
      "    for t in batch: t.start()\n"
      "    for t in batch: t.join()\n"
      "    started += len(batch)\n"
      "print(f'metrc: threads {started} started and joined')\n";
  for (const std::string& a : {std::string("--"), std::string("sh"), std::string("-c"), script,
                               std::string("sh"), seconds_arg, thread_loop}) {
    argv.push_back(a);
  }
  const std::string marker = UniqueEnvMarker("SNARE_SENTRY_MEMORY_TEST");
  SCOPED_TRACE("reproduce: " + util::ShellQuote(ForDisplay(argv)));
  util::SubprocessOptions options;
  options.cwd = dir;
  options.extra_env = {marker};
  options.timeout = seconds(kRunSeconds + 60);
  options.merge_stderr = true;
  util::Subprocess run;
  ASSERT_TRUE(run.Start(argv, options));

  // snare's processes are those of the run whose executable is snare's own.
  std::string exe;
  std::vector<Sample> samples;
  const Clock::time_point start = Clock::now();
  while (Clock::now() - start < seconds(kRunSeconds)) {
    if (exe.empty()) {
      char path[4096];
      const ssize_t n =
          readlink(("/proc/" + std::to_string(run.pid()) + "/exe").c_str(), path, sizeof(path));
      if (n > 0) exe.assign(path, n);
    }
    long kib = RssKib(run.pid());
    for (const ProcessInfo& p : ProcessesWithEnv(marker)) {
      if (p.pid != run.pid() && p.exe == exe) kib += RssKib(p.pid);
    }
    if (kib == 0) break;  // snare is gone
    samples.push_back({std::chrono::duration<double>(Clock::now() - start).count(), kib});
    std::this_thread::sleep_for(milliseconds(200));
  }
  util::SubprocessResult r = run.Wait();
  // With -v, stress-ng names a stressor that a signal ended ("terminated on signal: N"); a
  // failure shows those lines and snare's own however long the output.
  std::string telling;
  for (size_t at = 0; at < r.stdout_data.size();) {
    size_t end = r.stdout_data.find('\n', at);
    if (end == std::string::npos) end = r.stdout_data.size();
    const std::string line = r.stdout_data.substr(at, end - at);
    for (const char* mark : {"on signal", "snare", "fail:", "error:", "Error", "Traceback"}) {
      if (line.find(mark) != std::string::npos) {
        telling += line + "\n";
        break;
      }
    }
    at = end + 1;
  }
  ASSERT_EQ(r.status, 0) << telling << r.Describe();
  ASSERT_NE(r.stdout_data.find("metrc: threads "), std::string::npos)
      << "the thread loop did not finish\n"
      << r.Describe();
  // What the guest went through: stress-ng's bogo ops per stressor, the threads started.
  for (size_t at = 0; (at = r.stdout_data.find("metrc:", at)) != std::string::npos; ++at) {
    printf("%s\n", r.stdout_data.substr(at, r.stdout_data.find('\n', at) - at).c_str());
  }

  long first = 0, last = 0;
  for (const Sample& s : samples) {
    if (s.at_s >= kWarmUpSeconds && s.at_s < kWarmUpSeconds + kStretchSeconds) {
      first = std::max(first, s.kib);
    }
    if (s.at_s >= kRunSeconds - kStretchSeconds) last = std::max(last, s.kib);
  }
  ASSERT_GT(first, 0) << "no samples after the warm-up";
  ASSERT_GT(last, 0) << "no samples in the last stretch";
  RecordProperty("rss_first_kib", std::to_string(first));
  RecordProperty("rss_last_kib", std::to_string(last));
  printf("sentry RSS (%s): peak %ld KiB at %g-%g s, %ld KiB in the last %g s\n", GetParam().c_str(),
         first, kWarmUpSeconds, kWarmUpSeconds + kStretchSeconds, last, kStretchSeconds);
  EXPECT_LE(last, first + first / 5 + 4096)
      << "the sentry grew from " << first << " KiB to " << last << " KiB";
}

INSTANTIATE_TEST_SUITE_P(Platforms, SentryMemoryTest,
                         ::testing::Values("systrap", "inproc", "systrap-patch"),
                         [](const auto& info) { return PlatformTestName(info.param); });

}  // namespace
}  // namespace snare::tests
