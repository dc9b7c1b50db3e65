// Hostile resource use hurts only the guest: a fork bomb whose children would outlive it, an
// fd leak and a memory hog run under the default sandbox profile and meet its limits
// (nproc, nofile, as): the guest sees EAGAIN, EMFILE or ENOMEM, snare exits with the guest's
// status and no error of its own, nothing of the run is left, and the host can still fork.
// The guests run as the unprivileged `snareuser` (limits do not bind root) under a process
// cap of this test's, so that a snare without limits cannot take the machine down.
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <chrono>
#include <regex>
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

// Tasks the test's uid may have on the host: above the sandbox's 1000, far below what
// would hurt the machine.
constexpr rlim_t kHostProcessCap = 3000;

// Forks children that leave the guest's session and sleep, until fork fails.
constexpr char kForkBomb[] = R"(import os, sys, time
n = 0
try:
    while n < 5000:
        if os.fork() == 0:
            os.setsid()
            time.sleep(300)
            os._exit(0)
        n += 1
except OSError as e:
    print(f"forks={n} errno={e.errno}", flush=True)
    sys.exit(3)
print(f"forks={n} unlimited", flush=True)
sys.exit(4)
)";

constexpr char kFdLeak[] = R"(import os, sys
fds = []
try:
    while len(fds) < 100000:
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print(f"fds={len(fds)} errno={e.errno}", flush=True)
    sys.exit(3)
print(f"fds={len(fds)} unlimited", flush=True)
sys.exit(4)
)";

// Address space, reserved and never touched (no host memory is used), up to 256 GiB.
constexpr char kAddressSpaceHog[] = R"(import mmap, sys
maps = []
try:
    while len(maps) < 256:
        maps.append(mmap.mmap(-1, 1 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000,
                              prot=mmap.PROT_READ))
except OSError as e:
    print(f"gib={len(maps)} errno={e.errno}", flush=True)
    sys.exit(3)
print(f"gib={len(maps)} unlimited", flush=True)
sys.exit(4)
)";

// Memory written to, 16 MiB at a time, up to 4 GiB.
constexpr char kMemoryHog[] = R"(import sys
chunks = []
try:
    while len(chunks) < 256:
        chunks.append(bytearray(b"x" * (16 << 20)))
except MemoryError:
    print(f"mib={16 * len(chunks)} MemoryError", flush=True)
    sys.exit(3)
print(f"mib={16 * len(chunks)} unlimited", flush=True)
sys.exit(4)
)";

// The number after `key=` in `output`, with the errno word after it; -1 when absent.
long Figure(const std::string& output, const std::string& key, const std::string& then) {
  std::smatch m;
  if (!std::regex_search(output, m, std::regex(key + "=(\\d+) " + then))) return -1;
  return std::stol(m[1].str());
}

class HostileGuestTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to run the guests as snareuser";
    const passwd* user = getpwnam("snareuser");
    if (!user) GTEST_SKIP() << "no user snareuser (tools/setup.sh makes it)";
    uid_ = user->pw_uid;
    gid_ = user->pw_gid;
    // Inherited by snare and its guest (root itself is exempt).
    rlimit cap = {kHostProcessCap, kHostProcessCap};
    ASSERT_EQ(setrlimit(RLIMIT_NPROC, &cap), 0);
    // The fd cap the guest would have without snare's: as high as this test may go.
    rlimit files;
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &files), 0);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    dir_ = MakeTempDir("hostile");
    ASSERT_FALSE(dir_.empty());
    chmod(dir_.c_str(), 01777);
    marker_ = UniqueEnvMarker("SNARE_HOSTILE_TEST");
  }

  void TearDown() override { KillProcesses(ProcessesWithEnv(marker_)); }

  util::SubprocessResult RunGuest(const char* script, const std::vector<std::string>& flags = {}) {
    std::vector<std::string> argv = {snare_, "run"};
    for (const std::string& f : PlatformFlags(GetParam())) argv.push_back(f);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", "python3", "-c", script});
    util::SubprocessOptions options;
    options.cwd = dir_;
    options.uid = uid_;
    options.gid = gid_;
    options.extra_env = {marker_};
    options.timeout = seconds(120);
    options.drain_after_exit = milliseconds(500);
    return util::RunSubprocess(argv, options);
  }

  // snare reported the guest's status and nothing of its own; the run left nothing behind;
  // a process outside still forks.
  // `said`: what snare's one line of its own names, the limit the guest ran into.
  void ExpectOnlyTheGuestHurt(const util::SubprocessResult& r, const std::string& said) {
    EXPECT_EQ(r.status, 3) << r.Describe();
    const std::string prefix = "snare: the guest ran into its limits: ";
    const size_t line = r.stderr_data.find(prefix);
    EXPECT_NE(line, std::string::npos) << "snare did not say which limit:\n" << r.Describe();
    if (line != std::string::npos) {
      const std::string text = r.stderr_data.substr(line, r.stderr_data.find('\n', line) - line);
      EXPECT_NE(text.find(said), std::string::npos) << text;
      std::string rest = r.stderr_data;
      rest.erase(line, text.size());
      EXPECT_EQ(rest.find("snare"), std::string::npos) << "snare or its stub failed:\n"
                                                       << r.Describe();
    }
    std::vector<ProcessInfo> left;
    for (int i = 0; i < 100; ++i) {
      left = ProcessesWithEnv(marker_);
      if (left.empty()) break;
      std::this_thread::sleep_for(milliseconds(50));
    }
    EXPECT_TRUE(left.empty())
        << left.size() << " left behind, e.g.:\n"
        << DescribeProcesses({left.begin(), left.begin() + std::min<size_t>(left.size(), 5)});
    util::SubprocessOptions host;
    host.uid = uid_;
    host.gid = gid_;
    util::SubprocessResult forked = util::RunSubprocess({"sh", "-c", "true & wait $!"}, host);
    EXPECT_EQ(forked.status, 0) << "the host's user cannot fork after the guest:\n"
                                << forked.Describe();
  }

  std::string snare_, dir_, marker_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
};

TEST_P(HostileGuestTest, ForkBombMeetsTheProcessLimit) {
  util::SubprocessResult r = RunGuest(kForkBomb);
  const long forks = Figure(r.stdout_data, "forks", "errno=11");
  RecordProperty("forks", std::to_string(forks));
  EXPECT_GT(forks, 100) << r.Describe();
  EXPECT_LT(forks, 1000) << "the sandbox's nproc limit did not stop the bomb:\n" << r.Describe();
  ExpectOnlyTheGuestHurt(r, "forks or threads refused (EAGAIN) (nproc=1000)");
}

TEST_P(HostileGuestTest, FdLeakMeetsTheFileLimit) {
  rlimit files;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &files), 0);
  if (files.rlim_cur <= 4096) GTEST_SKIP() << "the host's own fd limit is not above 4096";
  util::SubprocessResult r = RunGuest(kFdLeak);
  const long fds = Figure(r.stdout_data, "fds", "errno=24");
  RecordProperty("fds", std::to_string(fds));
  EXPECT_GT(fds, 1000) << r.Describe();
  EXPECT_LE(fds, 4096) << "the sandbox's nofile limit did not stop the leak:\n" << r.Describe();
  ExpectOnlyTheGuestHurt(r, "new fds refused (EMFILE) (nofile=4096)");
}

TEST_P(HostileGuestTest, AddressSpaceHogMeetsTheMemoryLimit) {
  struct sysinfo info = {};
  ASSERT_EQ(sysinfo(&info), 0);
  const double half_gib = static_cast<double>(info.totalram) * info.mem_unit / 2 / (1 << 30);
  util::SubprocessResult r = RunGuest(kAddressSpaceHog);
  const long gib = Figure(r.stdout_data, "gib", "errno=12");
  RecordProperty("gib", std::to_string(gib));
  EXPECT_GE(gib, 0) << r.Describe();
  EXPECT_LE(gib, std::max(2.0, half_gib)) << "the sandbox's as limit did not stop it:\n"
                                          << r.Describe();
  ExpectOnlyTheGuestHurt(r, "memory requests refused (ENOMEM) (as=");
}

// --rlimit replaces the profile's limit: a hog that writes its memory stops at 1 GiB (inproc
// reserves 512 MiB of it for the sentry's fiber stacks).
TEST_P(HostileGuestTest, MemoryHogMeetsAnAddressSpaceLimitFromTheCommandLine) {
  util::SubprocessResult r = RunGuest(kMemoryHog, {"--rlimit=as=1G"});
  const long mib = Figure(r.stdout_data, "mib", "MemoryError");
  RecordProperty("mib", std::to_string(mib));
  EXPECT_GE(mib, 16) << r.Describe();
  EXPECT_LT(mib, 1024) << r.Describe();
  ExpectOnlyTheGuestHurt(r, "memory requests refused (ENOMEM) (as=1024M)");
}

INSTANTIATE_TEST_SUITE_P(Platforms, HostileGuestTest,
                         ::testing::Values("systrap", "inproc", "systrap-patch"),
                         [](const auto& info) { return PlatformTestName(info.param); });

}  // namespace
}  // namespace snare::tests
