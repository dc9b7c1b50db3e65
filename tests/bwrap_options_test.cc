// snare run's bubblewrap-style sandbox options end to end, on both platforms, with real
// programs: --ro-bind, --bind, --tmpfs, --root, --hostname, --uid/--gid (as root and as an
// unprivileged user), --rlimit, --time-limit, --net, and --policy FILE doing what the same
// flags do.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tests/host_listener.h"
#include "tests/proc_scan.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using Clock = std::chrono::steady_clock;
using Args = std::vector<std::string>;

constexpr uid_t kUnprivileged = 65534;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return out.good();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// One snare run and how to repeat it.
struct SnareRun {
  std::string reproducer;
  util::SubprocessResult result;
  std::string Describe() const { return "reproduce: " + reproducer + "\n" + result.Describe(); }
};

class BwrapOptionsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare) << snare.error();
    snare_ = *snare;
    work_ = MakeTempDir("bwrap-work");
    ASSERT_FALSE(work_.empty());
    // Every user's, so that the unprivileged runs may work in it too.
    ASSERT_EQ(chmod(work_.c_str(), 0777), 0);
  }

  void TearDown() override {
    std::error_code ignored;
    if (!work_.empty()) std::filesystem::remove_all(work_, ignored);
  }

  // A fresh directory of the test's (root's, 0755).
  std::string HostDir(const std::string& prefix) {
    std::string dir = MakeTempDir(prefix);
    EXPECT_FALSE(dir.empty());
    chmod(dir.c_str(), 0755);
    return dir;
  }

  // `snare run --platform=P FLAGS -- COMMAND`, in work_.
  SnareRun RunSnare(const Args& flags, const Args& command, util::SubprocessOptions options = {}) {
    Args argv = {snare_, "run", "--platform=" + GetParam()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("--");
    argv.insert(argv.end(), command.begin(), command.end());
    if (options.cwd.empty()) options.cwd = work_;
    if (options.timeout == std::chrono::seconds(120)) options.timeout = std::chrono::seconds(60);
    SnareRun run;
    run.reproducer = "(cd " + options.cwd + " && " + util::ShellQuote(ForDisplay(argv)) + ")";
    run.result = util::RunSubprocess(argv, options);
    return run;
  }

  std::string snare_;
  std::string work_;
};

TEST_P(BwrapOptionsTest, RoBindIsReadOnly) {
  const std::string host = HostDir("bwrap-ro");
  ASSERT_TRUE(WriteFile(host + "/f", "from the host\n"));
  SnareRun run = RunSnare({"--ro-bind", host, "/tmp/ro"},
                          {"sh", "-c", "cat /tmp/ro/f; echo new > /tmp/ro/g; echo status $?"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  EXPECT_TRUE(Contains(run.result.stdout_data, "from the host\n"));
  EXPECT_TRUE(Contains(run.result.stdout_data, "status 2"));  // sh: cannot create
  EXPECT_TRUE(Contains(run.result.stderr_data, "Read-only file system") ||
              Contains(run.result.stderr_data, "Permission denied"));
  EXPECT_FALSE(std::filesystem::exists(host + "/g"));
}

TEST_P(BwrapOptionsTest, BindIsWritable) {
  const std::string host = HostDir("bwrap-rw");
  SnareRun run = RunSnare({"--bind", host, "/tmp/rw"},
                          {"sh", "-c", "echo written > /tmp/rw/new && cat /tmp/rw/new"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  EXPECT_EQ(run.result.stdout_data, "written\n");
  EXPECT_EQ(ReadFile(host + "/new"), "written\n");
}

TEST_P(BwrapOptionsTest, TmpfsIsEmptyAndWritable) {
  // Over a host directory with a file in it: the tmpfs hides it.
  const std::string host = HostDir("bwrap-tmpfs");
  ASSERT_TRUE(WriteFile(host + "/hidden", "x"));
  SnareRun run = RunSnare(
      {"--tmpfs", host},
      {"sh", "-c", "ls -A " + host + " | wc -l; echo y > " + host + "/a && cat " + host + "/a"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  EXPECT_EQ(run.result.stdout_data, "0\ny\n");
  EXPECT_FALSE(std::filesystem::exists(host + "/a"));
}

TEST_P(BwrapOptionsTest, MountsApplyInCommandLineOrder) {
  // A tmpfs, then a bind inside it; the other way round the tmpfs would hide the bind.
  const std::string host = HostDir("bwrap-order");
  ASSERT_TRUE(WriteFile(host + "/f", "bound\n"));
  SnareRun run =
      RunSnare({"--tmpfs", "/tmp/a", "--ro-bind", host, "/tmp/a/b"}, {"cat", "/tmp/a/b/f"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  EXPECT_EQ(run.result.stdout_data, "bound\n");
  run = RunSnare({"--ro-bind", host, "/tmp/a/b", "--tmpfs", "/tmp/a"}, {"ls", "-A", "/tmp/a"});
  EXPECT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "") << run.Describe();
}

TEST_P(BwrapOptionsTest, BadMountsAreNamed) {
  SnareRun run = RunSnare({"--ro-bind", "/nonexistent-bwrap-src", "/tmp/x"}, {"true"});
  EXPECT_EQ(run.result.status, 2) << run.Describe();
  EXPECT_TRUE(Contains(run.result.stderr_data, "'/nonexistent-bwrap-src'")) << run.Describe();
  run = RunSnare({"--tmpfs", "relative/dir"}, {"true"});
  EXPECT_EQ(run.result.status, 2) << run.Describe();
  EXPECT_TRUE(Contains(run.result.stderr_data, "not an absolute path")) << run.Describe();
  run = RunSnare({"--profile=trace", "--tmpfs", "/tmp/x"}, {"true"});
  EXPECT_EQ(run.result.status, 2) << run.Describe();
  EXPECT_TRUE(Contains(run.result.stderr_data, "--profile=trace")) << run.Describe();
}

TEST_P(BwrapOptionsTest, AnotherRoot) {
  // A root of its own: /usr from the host, the merged-/usr links, a marker file.
  const std::string root = HostDir("bwrap-root");
  for (const char* dir : {"/dev", "/proc", "/tmp", "/usr"}) {
    ASSERT_EQ(mkdir((root + dir).c_str(), 0755), 0);
  }
  for (const char* link : {"bin", "lib", "lib64", "sbin"}) {
    ASSERT_EQ(symlink((std::string("usr/") + link).c_str(), (root + "/" + link).c_str()), 0);
  }
  ASSERT_TRUE(WriteFile(root + "/marker", "the guest's own root\n"));
  chmod((root + "/marker").c_str(), 0644);
  SnareRun run =
      RunSnare({"--root", root, "--ro-bind", "/usr", "/usr"},
               {"sh", "-c", "cat /marker; pwd; ls /tmp | wc -l; touch /x; echo status $?"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  // The host's working directory is not in this root: the guest starts at /.
  EXPECT_EQ(run.result.stdout_data, "the guest's own root\n/\n0\nstatus 1\n");

  run = RunSnare({"--root", work_}, {"true"});
  EXPECT_EQ(run.result.status, 2) << run.Describe();
  EXPECT_TRUE(Contains(run.result.stderr_data, "has no /dev")) << run.Describe();
}

TEST_P(BwrapOptionsTest, Hostname) {
  SnareRun run = RunSnare({"--hostname", "box-1"}, {"sh", "-c", "uname -n; hostname"});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 0);
  EXPECT_EQ(run.result.stdout_data, "box-1\nbox-1\n");
}

TEST_P(BwrapOptionsTest, Rlimit) {
  for (const char* profile : {"--profile=sandbox", "--profile=trace"}) {
    SnareRun run = RunSnare({profile, "--rlimit", "nofile=64", "--rlimit=core=0"},
                            {"sh", "-c", "ulimit -n; ulimit -Hn; ulimit -c; ls / > /dev/null"});
    EXPECT_EQ(run.result.status, 0) << run.Describe();
    EXPECT_EQ(run.result.stdout_data, "64\n64\n0\n") << run.Describe();
  }
}

TEST_P(BwrapOptionsTest, TimeLimitKillsTheWholeGuest) {
  const std::string marker = UniqueEnvMarker("SNARE_BWRAP_TIME_LIMIT");
  util::SubprocessOptions options;
  options.extra_env = {marker};
  const auto start = Clock::now();
  // A child of the guest too: the whole guest goes.
  SnareRun run = RunSnare({"--time-limit", "1"}, {"sh", "-c", "sleep 30 & sleep 30"}, options);
  const auto took = Clock::now() - start;
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.result.status, 124);
  EXPECT_TRUE(Contains(run.result.stderr_data, "time limit (1 s)"));
  EXPECT_GE(took, std::chrono::milliseconds(900));
  EXPECT_LT(took, std::chrono::seconds(10));
  std::vector<ProcessInfo> left;
  for (int i = 0; i < 50; ++i) {
    left = ProcessesWithEnv(marker);
    if (left.empty()) break;
    usleep(20'000);
  }
  EXPECT_TRUE(left.empty()) << DescribeProcesses(left);
  KillProcesses(left);

  // A guest that finishes in time keeps its own status.
  run = RunSnare({"--time-limit", "30"}, {"sh", "-c", "exit 3"});
  EXPECT_EQ(run.result.status, 3) << run.Describe();
}

// A listener on the host's 127.0.0.1: only --net=host reaches it.
TEST_P(BwrapOptionsTest, Network) {
  HostListener listener;
  std::string error;
  ASSERT_TRUE(listener.Open(&error)) << error;
  const std::string& port = listener.port();
  const Args connect = {"bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected"};

  SnareRun host = RunSnare({"--net=host"}, connect);
  EXPECT_EQ(host.result.status, 0) << host.Describe();
  EXPECT_EQ(host.result.stdout_data, "connected\n") << host.Describe();

  for (const Args& flags : {Args{}, Args{"--net=none"}}) {
    SnareRun none = RunSnare(flags, connect);
    EXPECT_NE(none.result.status, 0) << none.Describe();
    EXPECT_EQ(none.result.stdout_data, "") << none.Describe();
    EXPECT_TRUE(Contains(none.result.stderr_data, "Connection refused") ||
                Contains(none.result.stderr_data, "Network is unreachable"))
        << none.Describe();
  }
}

// --uid/--gid are the ids the guest sees, for root and for an unprivileged invoker.
TEST_P(BwrapOptionsTest, UidAndGid) {
  for (bool unprivileged : {false, true}) {
    SCOPED_TRACE(unprivileged ? "as uid 65534" : "as the test's user");
    util::SubprocessOptions options;
    if (unprivileged) {
      if (geteuid() != 0) GTEST_SKIP() << "dropping to uid 65534 needs root";
      options.uid = kUnprivileged;
      options.gid = kUnprivileged;
      SnareRun probe = RunSnare({}, {"true"}, options);
      if (probe.result.status != 0) {
        GTEST_SKIP() << "snare cannot run as uid 65534 here (user namespaces off?):\n"
                     << probe.Describe();
      }
    }
    SnareRun root = RunSnare({"--uid", "0", "--gid", "0"}, {"sh", "-c", "id -u; id -g"}, options);
    EXPECT_EQ(root.result.status, 0) << root.Describe();
    EXPECT_EQ(root.result.stdout_data, "0\n0\n") << root.Describe();
    SnareRun other = RunSnare({"--uid=1234", "--gid=4321"}, {"sh", "-c", "id -u; id -g"}, options);
    EXPECT_EQ(other.result.status, 0) << other.Describe();
    EXPECT_EQ(other.result.stdout_data, "1234\n4321\n") << other.Describe();
    // Inside uid 0 is not the host's root: the host's root-only files stay closed.
    SnareRun shadow = RunSnare({"--uid", "0"}, {"cat", "/etc/shadow"}, options);
    EXPECT_NE(shadow.result.status, 0) << shadow.Describe();
  }
}

// A policy file does what the same flags do.
TEST_P(BwrapOptionsTest, PolicyFileEqualsFlags) {
  const std::string host = HostDir("bwrap-policy");
  ASSERT_TRUE(WriteFile(host + "/f", "policy data\n"));
  const std::string policy = work_ + "/policy.json";
  ASSERT_TRUE(WriteFile(policy, R"({
    "mounts": [{"ro-bind": [")" + host +
                                    R"(", "/tmp/ro"]}, {"tmpfs": "/tmp/scratch"}],
    "hostname": "policybox", "uid": 0, "rlimits": {"nofile": 128},
    "syscalls": {"deny": ["mkdir:EACCES"]}
  })"));
  const Args command = {"sh", "-c",
                        "uname -n; id -u; ulimit -n; cat /tmp/ro/f; ls -A /tmp/scratch | wc -l; "
                        "mkdir /tmp/scratch/d; echo mkdir $?"};
  SnareRun from_file = RunSnare({"--policy", policy}, command);
  SnareRun from_flags =
      RunSnare({"--ro-bind", host, "/tmp/ro", "--tmpfs", "/tmp/scratch", "--hostname", "policybox",
                "--uid", "0", "--rlimit", "nofile=128", "--deny=mkdir:EACCES"},
               command);
  SCOPED_TRACE(from_file.Describe() + from_flags.Describe());
  EXPECT_EQ(from_file.result.status, 0);
  EXPECT_EQ(from_file.result.stdout_data, "policybox\n0\n128\npolicy data\n0\nmkdir 1\n");
  EXPECT_TRUE(Contains(from_file.result.stderr_data, "Permission denied"));
  EXPECT_EQ(from_file.result.status, from_flags.result.status);
  EXPECT_EQ(from_file.result.stdout_data, from_flags.result.stdout_data);
  EXPECT_EQ(from_file.result.stderr_data, from_flags.result.stderr_data);

  // The command line overrides the file.
  SnareRun both = RunSnare({"--policy", policy, "--hostname", "cli"}, {"uname", "-n"});
  EXPECT_EQ(both.result.stdout_data, "cli\n") << both.Describe();

  ASSERT_TRUE(WriteFile(policy, "{\"hostname\": \"x\",\n \"uid\": }\n"));
  SnareRun bad = RunSnare({"--policy", policy}, {"true"});
  EXPECT_EQ(bad.result.status, 2) << bad.Describe();
  EXPECT_TRUE(Contains(bad.result.stderr_data, "not valid JSON")) << bad.Describe();
  EXPECT_TRUE(Contains(bad.result.stderr_data, "line 2, column")) << bad.Describe();
}

INSTANTIATE_TEST_SUITE_P(Platforms, BwrapOptionsTest, ::testing::Values("systrap", "inproc"));

}  // namespace
}  // namespace snare::tests
