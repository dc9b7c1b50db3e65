// What the default profile refuses, shown on real effects: for each of a read of a file only
// root may read (/etc/shadow), a TCP connect to a listener the test runs on the host's
// 127.0.0.1, a SIGKILL to a host process of the same user, and creating a file outside the
// writable directories, the guest (//tests/guests:confine_probe) gets a clear errno, --trace
// shows the refused call with it, and the effect is absent on the host (no connection
// accepted, the process alive, no file). Natively, as the same user, the same probe succeeds
// where the user may do it: that is what makes each refusal the sandbox's. Both platforms, as
// root and as uid 65534.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tests/host_listener.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

constexpr uid_t kUnprivileged = 65534;

class ConfinementTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    auto probe = GuestPath("confine_probe");
    ASSERT_TRUE(probe.has_value()) << probe.error();
    probe_ = *probe;
    base_ = MakeTempDir("confine-");
    ASSERT_FALSE(base_.empty());
    work_ = base_ + "/work";
    outside_ = base_ + "/outside";
    ASSERT_EQ(mkdir(work_.c_str(), 0777), 0);
    ASSERT_EQ(chmod(work_.c_str(), 0777), 0);
    ASSERT_EQ(mkdir(outside_.c_str(), 0755), 0);
    if (Unprivileged()) {
      ASSERT_EQ(chown(outside_.c_str(), kUnprivileged, kUnprivileged), 0) << strerror(errno);
    }
  }

  void TearDown() override {
    std::error_code ignored;
    if (!base_.empty()) std::filesystem::remove_all(base_, ignored);
  }

  bool Unprivileged() const { return std::get<1>(GetParam()); }

  util::SubprocessOptions Options() const {
    util::SubprocessOptions options;
    options.timeout = std::chrono::seconds(60);
    options.cwd = work_;
    if (Unprivileged()) {
      options.uid = kUnprivileged;
      options.gid = kUnprivileged;
    }
    return options;
  }

  // The probe's verdict line natively, as the same user.
  std::string Native(const std::string& action, const std::string& arg) {
    util::SubprocessResult r = util::RunSubprocess({probe_, action, arg}, Options());
    EXPECT_EQ(r.status, 0) << r.Describe();
    return r.stdout_data;
  }

  // The probe under `snare run --trace` (the default profile); the trace is on stderr.
  util::SubprocessResult Snared(const std::string& action, const std::string& arg) {
    const std::vector<std::string> argv = {
        snare_, "run", "--platform=" + std::get<0>(GetParam()), "--trace", "--", probe_,
        action, arg};
    util::SubprocessResult r = util::RunSubprocess(argv, Options());
    EXPECT_EQ(r.status, 0) << util::ShellQuote(ForDisplay(argv)) << "\n" << r.Describe();
    return r;
  }

  // The refused call's trace line: "NAME(...ARG_TEXT...) = -1 ERRNO".
  static bool HasTraceLine(const std::string& trace, const std::string& call,
                           const std::string& arg_text, const std::string& err) {
    size_t at = 0;
    while ((at = trace.find(call + "(", at)) != std::string::npos) {
      size_t end = trace.find('\n', at);
      std::string line = trace.substr(at, end == std::string::npos ? end : end - at);
      if (line.find(arg_text) != std::string::npos && line.find("= -1 " + err) != std::string::npos)
        return true;
      at += call.size();
    }
    return false;
  }

  std::string snare_, probe_, base_, work_, outside_;
};

TEST_P(ConfinementTest, ReadOfAFileOnlyRootMayReadIsRefused) {
  const std::string path = "/etc/shadow";
  struct stat st;
  if (stat(path.c_str(), &st) != 0) GTEST_SKIP() << path << " does not exist here";
  EXPECT_EQ(Native("read", path),
            Unprivileged() ? "read " + path + ": EACCES\n" : "read " + path + ": ok\n");
  util::SubprocessResult r = Snared("read", path);
  EXPECT_EQ(r.stdout_data, "read " + path + ": EACCES\n");
  EXPECT_TRUE(HasTraceLine(r.stderr_data, "openat", "\"" + path + "\"", "EACCES")) << r.stderr_data;
}

TEST_P(ConfinementTest, ConnectToAHostListenerIsRefused) {
  HostListener listener;
  std::string error;
  ASSERT_TRUE(listener.Open(&error)) << error;
  const std::string& port = listener.port();

  EXPECT_EQ(Native("connect", port), "connect " + port + ": ok\n");
  listener.DropPendingConnections();  // the native one
  util::SubprocessResult r = Snared("connect", port);
  EXPECT_EQ(r.stdout_data, "connect " + port + ": ECONNREFUSED\n");
  EXPECT_TRUE(HasTraceLine(r.stderr_data, "connect", "", "ECONNREFUSED")) << r.stderr_data;
  EXPECT_FALSE(listener.HasPendingConnection())
      << "a connection from the guest reached the host's listener";
}

TEST_P(ConfinementTest, KillOfAHostProcessIsRefused) {
  util::SubprocessOptions host_options = Options();
  host_options.timeout = std::chrono::seconds(0);
  util::Subprocess host;
  ASSERT_TRUE(host.Start({"sleep", "600"}, host_options));
  const std::string pid = std::to_string(host.pid());
  util::SubprocessResult r = Snared("kill", pid);
  // Not in the guest's pid namespace (ESRCH); Landlock's signal scope would say EPERM.
  EXPECT_TRUE(r.stdout_data == "kill " + pid + ": ESRCH\n" ||
              r.stdout_data == "kill " + pid + ": EPERM\n")
      << r.stdout_data;
  EXPECT_TRUE(HasTraceLine(r.stderr_data, "kill", pid, "ESRCH") ||
              HasTraceLine(r.stderr_data, "kill", pid, "EPERM"))
      << r.stderr_data;
  EXPECT_EQ(kill(host.pid(), 0), 0) << "the host process is gone";
  // A native kill as the same user works: the refusal is the sandbox's.
  EXPECT_EQ(Native("kill", pid), "kill " + pid + ": ok\n");
  util::SubprocessResult h = host.Wait();
  EXPECT_EQ(h.status, 128 + SIGKILL);
}

TEST_P(ConfinementTest, WritesOutsideTheWritableDirectoriesAreRefused) {
  // A directory of the user's outside the working directory is not even there (the host
  // view hides everything of "/" but the system's directories); those are read-only.
  const std::string outside = outside_ + "/created";
  util::SubprocessResult r = Snared("write", outside);
  EXPECT_EQ(r.stdout_data, "write " + outside + ": ENOENT\n");
  EXPECT_TRUE(HasTraceLine(r.stderr_data, "openat", "\"" + outside + "\"", "ENOENT"))
      << r.stderr_data;
  struct stat st;
  EXPECT_NE(stat(outside.c_str(), &st), 0) << outside << " was created";
  const std::string system = "/etc/snare-confinement-test-created";
  r = Snared("write", system);
  EXPECT_EQ(r.stdout_data, "write " + system + ": EROFS\n");
  EXPECT_TRUE(HasTraceLine(r.stderr_data, "openat", "\"" + system + "\"", "EROFS"))
      << r.stderr_data;
  EXPECT_NE(stat(system.c_str(), &st), 0) << system << " was created";
  EXPECT_EQ(Native("write", outside), "write " + outside + ": ok\n");  // the user may
  // The working directory and /tmp stay writable.
  EXPECT_EQ(Snared("write", work_ + "/created").stdout_data, "write " + work_ + "/created: ok\n");
  EXPECT_EQ(stat((work_ + "/created").c_str(), &st), 0);
  EXPECT_EQ(Snared("write", "/tmp/created").stdout_data, "write /tmp/created: ok\n");
}

// The program named on the command line runs from the host's /tmp, which the guest sees as
// a private tmpfs: that one file is bound in, read-only, and its neighbours stay hidden.
TEST_P(ConfinementTest, AProgramInTheHostsTmpRunsAndOnlyItIsVisible) {
  char templ[] = "/tmp/snare-hidden-XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr) << strerror(errno);
  const std::string dir = templ;
  ASSERT_EQ(chmod(dir.c_str(), 0755), 0);
  const std::string script = dir + "/show.sh", secret = dir + "/secret";
  const std::string text = "#!/bin/sh\nls " + dir + "\necho ran >> " + script + "\n";
  std::ofstream(script) << text;
  ASSERT_EQ(chmod(script.c_str(), 0777), 0);  // only the read-only bind stops a write
  std::ofstream(secret) << "host data\n";
  const std::vector<std::string> argv = {snare_, "run", "--platform=" + std::get<0>(GetParam()),
                                         "--", script};
  util::SubprocessResult r = util::RunSubprocess(argv, Options());
  EXPECT_EQ(r.stdout_data, "show.sh\n") << r.Describe();  // no "secret"
  EXPECT_NE(r.stderr_data.find("Read-only file system"), std::string::npos) << r.Describe();
  EXPECT_NE(r.status, 0) << r.Describe();  // the script's last command: the refused append
  std::error_code ignored;
  EXPECT_EQ(std::filesystem::file_size(script, ignored), text.size());
  std::filesystem::remove_all(dir, ignored);
}

INSTANTIATE_TEST_SUITE_P(Platforms, ConfinementTest,
                         ::testing::Combine(::testing::Values("systrap", "inproc"),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           return std::get<0>(info.param) +
                                  (std::get<1>(info.param) ? "_unprivileged" : "_root");
                         });

}  // namespace
}  // namespace snare::tests
