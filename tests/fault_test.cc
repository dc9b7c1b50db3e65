// Faults in the sentry and in its outputs. The sentry is SIGKILLed, SIGSTOPped or runs out
// of CPU time at random moments of a guest whose four threads (one forking) make syscalls
// without pause (progress_guest: the size of its file is its progress). The guest never
// goes on without the sentry: it dies with it, or waits for it. A full disk or an
// unwritable place for the trace or the stats makes snare say so, fail, and leave nothing
// half-written there.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
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

off_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// The size once it has grown past zero, or -1 after `limit`.
off_t WaitForProgress(const std::string& path, Clock::duration limit) {
  const Clock::time_point end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (FileSize(path) > 0) return FileSize(path);
    std::this_thread::sleep_for(milliseconds(20));
  }
  return -1;
}

// CPU seconds (user + system) the process has used, from /proc/PID/stat.
double CpuSecondsOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

class FaultTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    auto guest = GuestPath("progress_guest");
    ASSERT_TRUE(guest.has_value()) << guest.error();
    guest_ = *guest;
    marker_ = UniqueEnvMarker("SNARE_FAULT_TEST");
    dir_ = MakeTempDir("fault");
    ASSERT_FALSE(dir_.empty());
    chmod(dir_.c_str(), 0777);  // a guest run as root is nobody
    progress_ = dir_ + "/progress";
    // Random moments, reproducible from the seed in the log.
    seed_ = static_cast<unsigned>(Clock::now().time_since_epoch().count());
    random_.seed(seed_);
    RecordProperty("seed", std::to_string(seed_));
  }

  void TearDown() override { KillProcesses(ProcessesWithEnv(marker_)); }

  std::vector<std::string> Argv(double guest_seconds) const {
    std::vector<std::string> argv = {snare_, "run"};
    for (const std::string& flag : PlatformFlags(GetParam())) argv.push_back(flag);
    for (const std::string& arg :
         {std::string("--"), guest_, progress_, std::to_string(guest_seconds)}) {
      argv.push_back(arg);
    }
    return argv;
  }

  util::SubprocessOptions Options() const {
    util::SubprocessOptions options;
    options.extra_env = {marker_};
    options.cwd = dir_;
    options.timeout = seconds(90);
    options.drain_after_exit = milliseconds(500);
    return options;
  }

  milliseconds RandomDelay(int max_ms) {
    return milliseconds(std::uniform_int_distribution<int>(0, max_ms)(random_));
  }

  std::string Repro(const std::vector<std::string>& argv) const {
    return "seed " + std::to_string(seed_) + "; reproduce: cd " + dir_ + " && " +
           util::ShellQuote(ForDisplay(argv));
  }

  bool StopsTheGuest() const { return GetParam() != "inproc"; }

  std::string snare_, guest_, marker_, dir_, progress_;
  unsigned seed_ = 0;
  std::mt19937 random_;
};

// Killed at any moment, the sentry takes every guest process with it (its threads and its
// forked children), and the guest's file stops growing.
TEST_P(FaultTest, SigkillAtRandomMomentsTakesTheGuestDown) {
  const std::vector<std::string> argv = Argv(60);
  SCOPED_TRACE(Repro(argv));
  for (int round = 0; round < 4; ++round) {
    unlink(progress_.c_str());
    util::Subprocess snare;
    ASSERT_TRUE(snare.Start(argv, Options()));
    ASSERT_GT(WaitForProgress(progress_, seconds(30)), 0) << "the guest never started";
    const milliseconds delay = RandomDelay(800);
    std::this_thread::sleep_for(delay);
    ASSERT_EQ(kill(snare.pid(), SIGKILL), 0);
    const util::SubprocessResult r = snare.Wait();
    EXPECT_EQ(r.status, 128 + SIGKILL) << r.Describe();
    const std::vector<ProcessInfo> left = WaitUntilGone(marker_, seconds(5));
    ASSERT_TRUE(left.empty()) << "killed " << delay.count()
                              << " ms into the guest's run, these survived:\n"
                              << DescribeProcesses(left);
    const off_t after = FileSize(progress_);
    std::this_thread::sleep_for(milliseconds(300));
    EXPECT_EQ(FileSize(progress_), after) << "something went on writing after the guest died";
  }
}

// Stopped, the sentry answers nothing: under systrap the guest's threads wait in their
// syscalls (the file stands still) and, continued, the run ends as it would have. Under
// inproc the guest answers its own calls and goes on; the run still ends normally.
TEST_P(FaultTest, SigstopAtRandomMomentsMakesTheGuestWait) {
  const std::vector<std::string> argv = Argv(2.5);
  SCOPED_TRACE(Repro(argv));
  for (int round = 0; round < 2; ++round) {
    unlink(progress_.c_str());
    util::Subprocess snare;
    ASSERT_TRUE(snare.Start(argv, Options()));
    ASSERT_GT(WaitForProgress(progress_, seconds(30)), 0) << "the guest never started";
    std::this_thread::sleep_for(RandomDelay(500));
    ASSERT_EQ(kill(snare.pid(), SIGSTOP), 0);
    std::this_thread::sleep_for(milliseconds(200));  // calls already answered complete
    const off_t stopped = FileSize(progress_);
    std::this_thread::sleep_for(milliseconds(800));
    const off_t still = FileSize(progress_);
    ASSERT_EQ(kill(snare.pid(), SIGCONT), 0);
    const util::SubprocessResult r = snare.Wait();
    EXPECT_EQ(r.status, 3) << r.Describe();
    EXPECT_EQ(r.stdout_data, "done\n") << r.Describe();
    if (StopsTheGuest()) {
      EXPECT_EQ(still, stopped) << "the guest made syscalls while the sentry was stopped";
    }
    EXPECT_GT(FileSize(progress_), still) << "the guest did not go on after SIGCONT";
    EXPECT_TRUE(WaitUntilGone(marker_, seconds(5)).empty());
  }
}

// At RLIMIT_CPU's soft limit the sentry kills the guest and says why; the run's status is
// death by SIGXCPU, as for any program that reaches the limit. Under inproc the sentry only
// answers brokered calls and spends no CPU time while this guest runs.
TEST_P(FaultTest, CpuLimitStopsTheGuestWithAMessage) {
  if (!StopsTheGuest()) GTEST_SKIP() << "inproc's sentry is idle while this guest runs";
  const std::vector<std::string> argv = Argv(60);
  SCOPED_TRACE(Repro(argv));
  util::Subprocess snare;
  ASSERT_TRUE(snare.Start(argv, Options()));
  ASSERT_GT(WaitForProgress(progress_, seconds(30)), 0) << "the guest never started";
  std::this_thread::sleep_for(RandomDelay(500));
  const double used = CpuSecondsOf(snare.pid());
  const rlimit limit = {static_cast<rlim_t>(used) + 1, static_cast<rlim_t>(used) + 20};
  ASSERT_EQ(prlimit(snare.pid(), RLIMIT_CPU, &limit, nullptr), 0) << strerror(errno);
  const Clock::time_point limited = Clock::now();
  const util::SubprocessResult r = snare.Wait();
  EXPECT_EQ(r.status, 128 + SIGXCPU) << r.Describe();
  EXPECT_NE(r.stderr_data.find("the sentry reached its CPU time limit (RLIMIT_CPU); the guest "
                               "was killed"),
            std::string::npos)
      << r.Describe();
  EXPECT_LT(Clock::now() - limited, seconds(45)) << "the limit did not end the run";
  const std::vector<ProcessInfo> left = WaitUntilGone(marker_, seconds(5));
  EXPECT_TRUE(left.empty()) << DescribeProcesses(left);
}

INSTANTIATE_TEST_SUITE_P(Platforms, FaultTest,
                         ::testing::Values("systrap", "inproc", "systrap-patch"),
                         [](const auto& info) { return PlatformTestName(info.param); });

// The outputs: a tmpfs of 64 KiB, made full or read-only, in a mount namespace of the test's
// own (as root a plain one; otherwise a user namespace too, where snare's sandbox cannot map
// nobody, so those runs use --profile=trace). The script runs snare, then lists what the
// directory holds.
class OutputFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    work_ = MakeTempDir("outfault");
    mnt_ = MakeTempDir("outmnt");
    ASSERT_FALSE(work_.empty() || mnt_.empty());
    chmod(work_.c_str(), 0777);
  }

  // `fault`: "full" or "readonly". Returns the result; *left gets the directory's names.
  util::SubprocessResult RunWith(const std::string& fault, const std::vector<std::string>& flags,
                                 const std::string& guest_script, std::string* left) {
    const bool root = geteuid() == 0;
    const std::string prepare = fault == "full" ? "cat /dev/zero > \"$D/fill\" 2>/dev/null; "
                                                : "mount -o remount,ro \"$D\" || exit 90; ";
    const std::string script =
        "D=\"$1\"; shift; mount -t tmpfs -o size=64k snare-fault \"$D\" || exit 90; " + prepare +
        "\"$@\"; rc=$?; printf 'left:'; ls -A \"$D\" | tr '\\n' ' '; exit $rc";
    std::vector<std::string> argv = {
        "unshare", root ? "-m" : "-Urm", "sh", "-c", script, "sh", mnt_, snare_, "run"};
    if (!root) argv.push_back("--profile=trace");
    argv.insert(argv.end(), flags.begin(), flags.end());
    for (const std::string& arg :
         {std::string("--"), std::string("sh"), std::string("-c"), guest_script}) {
      argv.push_back(arg);
    }
    util::SubprocessOptions options;
    options.cwd = work_;
    options.timeout = seconds(60);
    util::SubprocessResult r = util::RunSubprocess(argv, options);
    const size_t at = r.stdout_data.rfind("left:");
    *left = at == std::string::npos ? "?" : r.stdout_data.substr(at + 5);
    SCOPED_TRACE(util::ShellQuote(ForDisplay(argv)));
    EXPECT_NE(r.status, 90) << "could not mount the tmpfs: " << r.Describe();
    return r;
  }

  std::string snare_, work_, mnt_;
};

// A guest that makes a few thousand calls: more trace than the disk holds.
constexpr char kChattyGuest[] = "i=0; while [ $i -lt 300 ]; do i=$((i+1)); cat /dev/null; done";

TEST_F(OutputFaultTest, TraceOnAFullDiskIsNotLeftHalfWritten) {
  std::string left;
  const util::SubprocessResult r =
      RunWith("full", {"--trace-file=" + mnt_ + "/trace.txt"}, kChattyGuest, &left);
  EXPECT_EQ(r.status, 1) << r.Describe();
  EXPECT_NE(r.stderr_data.find("the trace file '" + mnt_ +
                               "/trace.txt' was not written: No space left on device"),
            std::string::npos)
      << r.Describe();
  EXPECT_EQ(left, "fill ") << "the full disk holds more than before: " << r.Describe();
}

TEST_F(OutputFaultTest, StatsOnAFullDiskAreNotLeftHalfWritten) {
  std::string left;
  const util::SubprocessResult r = RunWith(
      "full", {"--stats=json", "--stats-file=" + mnt_ + "/stats.json"}, kChattyGuest, &left);
  EXPECT_EQ(r.status, 1) << r.Describe();
  EXPECT_NE(r.stderr_data.find("'" + mnt_ + "/stats.json': No space left on device"),
            std::string::npos)
      << r.Describe();
  EXPECT_EQ(left, "fill ") << r.Describe();
}

// Nowhere to write the trace or the stats: snare says so before the guest runs at all.
TEST_F(OutputFaultTest, UnwritableOutputsStopTheRunBeforeTheGuest) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--trace-file=" + mnt_ + "/trace.txt"},
        std::vector<std::string>{"--stats=table", "--stats-file=" + mnt_ + "/stats.txt"}}) {
    SCOPED_TRACE(flags.back());
    unlink((work_ + "/ran").c_str());
    std::string left;
    const util::SubprocessResult r = RunWith("readonly", flags, "echo yes > ran", &left);
    EXPECT_NE(r.status, 0) << r.Describe();
    EXPECT_NE(r.stderr_data.find(mnt_), std::string::npos) << r.Describe();
    EXPECT_NE(r.stderr_data.find("Read-only file system"), std::string::npos) << r.Describe();
    EXPECT_EQ(FileSize(work_ + "/ran"), -1) << "the guest ran: " << r.Describe();
    EXPECT_EQ(left, "") << r.Describe();
  }
}

}  // namespace
}  // namespace snare::tests
