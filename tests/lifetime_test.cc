// Guest processes never outlive snare: not when snare is SIGKILLed while they run, and not
// when the guest's main process exits leaving background children. Guests are identified by
// a unique environment entry given to each snare run.
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
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

// Live processes carrying `marker` whose command line mentions `sleep`.
std::vector<ProcessInfo> Sleepers(const std::string& marker) {
  std::vector<ProcessInfo> out;
  for (ProcessInfo& p : ProcessesWithEnv(marker)) {
    // The guest's sleeps themselves, not snare (whose command line also names them).
    if (p.cmdline.rfind("sleep ", 0) == 0) out.push_back(std::move(p));
  }
  return out;
}

constexpr char kNoPidNamespace[] =
    "--profile=trace without the privilege to make a pid namespace: snare warns that guests "
    "may outlive it";

// Whether this process may make a pid namespace without a user namespace, as the trace
// profile's launch does (root or CAP_SYS_ADMIN).
bool CanMakePidNamespace() {
  const pid_t child = fork();
  if (child == 0) _exit(unshare(CLONE_NEWPID) == 0 ? 0 : 1);
  int status = 0;
  return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

class LifetimeTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    marker_ = UniqueEnvMarker("SNARE_LIFETIME_TEST");
  }

  void TearDown() override { KillProcesses(ProcessesWithEnv(marker_)); }

  // Only a pid namespace makes the kernel take every guest process down with a SIGKILLed
  // snare; the trace profile has one only where the user may make it (snare warns otherwise).
  bool SigkillCannotReachTheGuests() const {
    return GetParam().ends_with(":trace") && !CanMakePidNamespace();
  }

  std::vector<std::string> SnareArgv(const std::string& script) const {
    const std::string& param = GetParam();
    return {snare_,
            "run",
            "--platform=" + param.substr(0, param.find(':')),
            "--profile=" + param.substr(param.find(':') + 1),
            "--",
            "sh",
            "-c",
            script};
  }

  // Options for a snare run whose processes carry this test's marker.
  util::SubprocessOptions Marked(std::chrono::milliseconds drain) const {
    util::SubprocessOptions options;
    options.extra_env = {marker_};
    options.timeout = seconds(60);
    options.drain_after_exit = drain;
    return options;
  }

  std::string Repro(const std::vector<std::string>& argv) const {
    return "reproduce: env " + util::ShellQuote({marker_}) + " " +
           util::ShellQuote(ForDisplay(argv)) + "  # then look for the marker in /proc/*/environ";
  }

  std::string snare_;
  std::string marker_;
};

// SIGKILL at any moment of the launch, even before the guest's init has asked to die with
// snare (PR_SET_PDEATHSIG), leaves nothing behind. The kills must cover the launch: at least
// one lands before the guest's program has started and at least one after it has (the
// delays go on growing until one has).
TEST_P(LifetimeTest, SigkillDuringLaunchLeavesNothing) {
  if (SigkillCannotReachTheGuests()) {
    GTEST_SKIP() << kNoPidNamespace;
  }
  std::vector<std::string> argv = SnareArgv("sleep 300 & sleep 300 & wait");
  SCOPED_TRACE(Repro(argv) + " and kill -9 snare at once");
  int killed_before_guest = 0, killed_with_guest = 0;
  for (int delay_us = 0; delay_us <= 20000 || (killed_with_guest == 0 && delay_us <= 2000000);
       delay_us += delay_us < 20000 ? 1000 : delay_us) {
    util::Subprocess snare;
    ASSERT_TRUE(snare.Start(argv, Marked(milliseconds(200))));
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    // The guest has started once a process of this run runs something other than snare's
    // own binary (the stub, sh, the sleeps); before that there are at most snare's forks
    // setting up the sandbox (init).
    const std::vector<ProcessInfo> run = ProcessesWithEnv(marker_);
    std::string snare_exe;
    for (const ProcessInfo& p : run) {
      if (p.pid == snare.pid()) snare_exe = p.exe;
    }
    size_t guests = 0;
    for (const ProcessInfo& p : run) guests += p.pid != snare.pid() && p.exe != snare_exe;
    ASSERT_EQ(kill(snare.pid(), SIGKILL), 0);
    ++(guests ? killed_with_guest : killed_before_guest);
    snare.Wait();
    std::vector<ProcessInfo> left = WaitUntilGone(marker_, seconds(5));
    ASSERT_TRUE(left.empty()) << "killed " << delay_us << " us after the start, these survived:\n"
                              << DescribeProcesses(left);
  }
  RecordProperty("killed_before_guest", killed_before_guest);
  RecordProperty("killed_with_guest", killed_with_guest);
  EXPECT_GT(killed_before_guest, 0) << "no kill landed before the guest started";
  EXPECT_GT(killed_with_guest, 0) << "no kill landed while a guest process existed";
}

TEST_P(LifetimeTest, SigkillOfSnareTakesTheGuestsDown) {
  if (SigkillCannotReachTheGuests()) {
    GTEST_SKIP() << kNoPidNamespace;
  }
  std::vector<std::string> argv = SnareArgv("sleep 300 & sleep 300 & wait");
  SCOPED_TRACE(Repro(argv) + " and kill -9 snare");
  util::Subprocess snare;
  ASSERT_TRUE(snare.Start(argv, Marked(milliseconds(500))));

  // Wait for both sleeps to run under snare.
  std::vector<ProcessInfo> sleepers;
  const Clock::time_point end = Clock::now() + seconds(30);
  while (Clock::now() < end) {
    sleepers = Sleepers(marker_);
    if (sleepers.size() >= 2) break;
    std::this_thread::sleep_for(milliseconds(50));
  }
  ASSERT_GE(sleepers.size(), 2u)
      << "the guest's sleeps never appeared; processes with the marker:\n"
      << DescribeProcesses(ProcessesWithEnv(marker_));
  // Only snare itself is killed; not its process group.
  ASSERT_EQ(kill(snare.pid(), SIGKILL), 0);
  util::SubprocessResult r = snare.Wait();
  EXPECT_EQ(r.status, 128 + SIGKILL) << r.Describe();

  std::vector<ProcessInfo> left = WaitUntilGone(marker_, seconds(5));
  EXPECT_TRUE(left.empty()) << "guest processes survived snare's SIGKILL by 5 s:\n"
                            << DescribeProcesses(left) << "(they were:\n"
                            << DescribeProcesses(sleepers) << ")";
}

TEST_P(LifetimeTest, BackgroundChildrenEndWithTheRun) {
  std::vector<std::string> argv = SnareArgv("sleep 300 & exit 0");
  SCOPED_TRACE(Repro(argv));
  util::SubprocessResult r = util::RunSubprocess(argv, Marked(milliseconds(2000)));
  EXPECT_FALSE(r.timed_out) << r.Describe();
  EXPECT_EQ(r.status, 0) << r.Describe();
  EXPECT_FALSE(r.output_held_open) << "a leftover process kept snare's stdout/stderr open";

  // Killed processes need a moment to finish exiting; 1 s is plenty.
  std::vector<ProcessInfo> soon = WaitUntilGone(marker_, seconds(1));
  std::vector<ProcessInfo> later = WaitUntilGone(marker_, seconds(4));
  EXPECT_TRUE(soon.empty()) << "1 s after snare returned, these guest processes were alive:\n"
                            << DescribeProcesses(soon)
                            << (later.empty() ? "(gone within 5 s)\n"
                                              : "(still alive after 5 s)\n");
}

INSTANTIATE_TEST_SUITE_P(Platforms, LifetimeTest,  // "PLATFORM:PROFILE": both platforms under the
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
