// The test harness itself: exit statuses as a shell reports them, captured streams, stdin,
// the working directory, extra environment, timeouts and start failures. Needs no snare.
#include "util/subprocess.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::util {
namespace {

TEST(SubprocessTest, CapturesStdoutStderrAndStatus) {
  SubprocessResult r = RunSubprocess({"sh", "-c", "echo out; echo err >&2; exit 5"});
  EXPECT_EQ(r.status, 5);
  EXPECT_EQ(r.stdout_data, "out\n");
  EXPECT_EQ(r.stderr_data, "err\n");
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(r.start_error.empty());
}

TEST(SubprocessTest, DeathBySignalIs128PlusN) {
  EXPECT_EQ(RunSubprocess({"sh", "-c", "kill -TERM $$"}).status, 143);
  EXPECT_EQ(RunSubprocess({"sh", "-c", "kill -KILL $$"}).status, 137);
}

TEST(SubprocessTest, FeedsStdin) {
  std::string big(1 << 20, 'x');
  SubprocessOptions options;
  options.stdin_data = big;
  SubprocessResult r = RunSubprocess({"wc", "-c"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, std::to_string(big.size()) + "\n");
}

TEST(SubprocessTest, StdinUnreadIsHarmless) {
  SubprocessOptions options;
  options.stdin_data = std::string(1 << 20, 'y');
  EXPECT_EQ(RunSubprocess({"/bin/true"}, options).status, 0);
}

TEST(SubprocessTest, DefaultStdinIsDevNull) { EXPECT_EQ(RunSubprocess({"cat"}).stdout_data, ""); }

TEST(SubprocessTest, CwdAndEnvironment) {
  SubprocessOptions options;
  options.cwd = "/usr";
  options.extra_env = {"GUEST_RUNNER_TEST=42", "HOME=/nowhere"};
  SubprocessResult r = RunSubprocess({"sh", "-c", "pwd; echo $GUEST_RUNNER_TEST $HOME"}, options);
  EXPECT_EQ(r.stdout_data, "/usr\n42 /nowhere\n");
}

TEST(SubprocessTest, SignalsAreDefaultAndUnblocked) {
  // SIGPIPE back at its default: the writer of a closed pipe dies (141) instead of failing.
  SubprocessResult r = RunSubprocess({"sh", "-c", "yes | head -1"});
  EXPECT_EQ(r.stdout_data, "y\n");
  EXPECT_EQ(r.stderr_data, "") << "a writer saw EPIPE instead of dying of SIGPIPE";
  EXPECT_EQ(RunSubprocess({"sh", "-c", "grep -E '^(SigBlk|SigIgn)' /proc/self/status"}).stdout_data,
            "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(SubprocessTest, OnlyStdioIsInherited) {
  SubprocessResult r = RunSubprocess({"sh", "-c", "ls /proc/self/fd | sort -n | tr '\\n' ' '"});
  // 0-2 plus the fd ls uses to read the directory.
  EXPECT_EQ(r.stdout_data, "0 1 2 3 ");
}

TEST(SubprocessTest, TimeoutKillsTheProcessGroup) {
  SubprocessOptions options;
  options.timeout = std::chrono::seconds(1);
  auto start = std::chrono::steady_clock::now();
  SubprocessResult r = RunSubprocess({"sh", "-c", "sleep 100 & sleep 100"}, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 137);
  EXPECT_LT(elapsed, std::chrono::seconds(10));
  EXPECT_FALSE(r.output_held_open) << "the background sleep survived the group kill";
}

TEST(SubprocessTest, LeftoverProcessHoldingOutputIsReported) {
  SubprocessOptions options;
  options.drain_after_exit = std::chrono::milliseconds(300);
  SubprocessResult r = RunSubprocess({"sh", "-c", "sleep 3 & echo started"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "started\n");
  EXPECT_TRUE(r.output_held_open);
}

TEST(SubprocessTest, MissingProgramIsAStartError) {
  SubprocessResult r = RunSubprocess({"guest-runner-no-such-program"});
  EXPECT_EQ(r.status, -1);
  EXPECT_NE(r.start_error.find("No such file or directory"), std::string::npos) << r.start_error;
}

TEST(SubprocessTest, ShellQuote) {
  EXPECT_EQ(ShellQuote({"a", "b c", "it's", "", "--x=1"}), "a 'b c' 'it'\\''s' '' --x=1");
}

TEST(SubprocessTest, MergedStreamsKeepTheirOrder) {
  SubprocessOptions options;
  options.merge_stderr = true;
  SubprocessResult r = RunSubprocess({"sh", "-c", "echo 1; echo 2 >&2; echo 3"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "1\n2\n3\n");
  EXPECT_EQ(r.stderr_data, "");
}

TEST(SubprocessTest, LinesAsTheyArrive) {
  SubprocessOptions options;
  std::vector<std::string> lines;
  options.on_line = [&](const std::string& line) { lines.push_back(line); };
  options.keep_stdout = false;
  SubprocessResult r = RunSubprocess({"printf", "a\\nb\\r\\n\\nlast"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, "");
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b", "", "last"}));
}

TEST(SubprocessTest, PinnedToOneCpu) {
  SubprocessOptions options;
  options.cpu = 0;
  SubprocessResult r =
      RunSubprocess({"sh", "-c", "grep Cpus_allowed_list /proc/self/status"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.stdout_data.find(":\t0\n"), std::string::npos) << r.stdout_data;
}

TEST(SubprocessTest, NoTimeoutWaitsForTheChild) {
  SubprocessOptions options;
  options.timeout = std::chrono::seconds(0);
  SubprocessResult r = RunSubprocess({"sh", "-c", "sleep 0.2; exit 3"}, options);
  EXPECT_EQ(r.status, 3);
  EXPECT_FALSE(r.timed_out);
}

TEST(SubprocessTest, RunsWithOtherCredentials) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to change credentials";
  SubprocessOptions options;
  options.uid = 65534;
  options.gid = 65534;
  SubprocessResult r = RunSubprocess(
      {"sh", "-c", "id -u; id -g; id -G; grep -E '^(Uid|Gid):' /proc/self/status"}, options);
  EXPECT_EQ(r.status, 0) << r.Describe();
  EXPECT_EQ(r.stdout_data,
            "65534\n65534\n65534\nUid:\t65534\t65534\t65534\t65534\n"
            "Gid:\t65534\t65534\t65534\t65534\n");
}

TEST(SubprocessTest, CredentialFailureIsAStartError) {
  // An unprivileged caller cannot become uid 0. As root, ask from a child that is not.
  auto attempt = [] {
    SubprocessOptions options;
    options.uid = 0;
    return RunSubprocess({"/bin/true"}, options);
  };
  std::string start_error;
  int status = 0;
  if (geteuid() != 0) {
    SubprocessResult r = attempt();
    start_error = r.start_error;
    status = r.status;
  } else {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(2);
      SubprocessResult r = attempt();
      std::string report = std::to_string(r.status) + "\n" + r.start_error;
      ssize_t ignored = write(fds[1], report.data(), report.size());
      (void)ignored;
      _exit(0);
    }
    close(fds[1]);
    std::string report;
    char buf[512];
    for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) report.append(buf, n);
    close(fds[0]);
    int wait_status;
    ASSERT_EQ(waitpid(pid, &wait_status, 0), pid);
    ASSERT_TRUE(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) << "helper failed";
    size_t nl = report.find('\n');
    ASSERT_NE(nl, std::string::npos) << report;
    status = std::stoi(report.substr(0, nl));
    start_error = report.substr(nl + 1);
  }
  EXPECT_EQ(status, -1);
  // setgroups(0), the first step, is already refused.
  EXPECT_EQ(start_error, "cannot start /bin/true: setgroups(0): Operation not permitted");
}

TEST(SubprocessTest, ControllingTerminalIsStdinOfANewSession) {
  PseudoTerminal pty;
  std::string error;
  ASSERT_TRUE(pty.Open(&error)) << error;
  struct stat st;
  ASSERT_EQ(stat(pty.slave_path().c_str(), &st), 0);
  // /proc/PID/stat's tty_nr encoding of the terminal's device number.
  const unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
  const unsigned long tty_nr = (min & 0xff) | (maj << 8) | ((min & ~0xffu) << 12);
  const std::string line = "hello from the master\n";
  ASSERT_EQ(write(pty.master(), line.data(), line.size()), static_cast<ssize_t>(line.size()));

  SubprocessOptions options;
  options.controlling_tty = pty.slave_path();
  options.timeout = std::chrono::seconds(30);
  Subprocess process;
  ASSERT_TRUE(process.Start({"sh", "-c",
                             "read -r line; echo \"got:$line\"; cut -d' ' -f5-7 /proc/$$/stat; "
                             "test -t 1 || echo stdout-is-a-pipe; test -t 2 || echo stderr-too"},
                            options));
  const pid_t pid = process.pid();
  SubprocessResult r = process.Wait();
  EXPECT_EQ(r.status, 0) << r.Describe();
  const std::string id = std::to_string(pid);
  EXPECT_EQ(r.stdout_data, "got:hello from the master\n" + id + " " + id + " " +
                               std::to_string(tty_nr) + "\nstdout-is-a-pipe\nstderr-too\n");
}

TEST(SubprocessTest, TimeoutKillsTheSessionOfATerminal) {
  PseudoTerminal pty;
  std::string error;
  ASSERT_TRUE(pty.Open(&error)) << error;
  SubprocessOptions options;
  options.controlling_tty = pty.slave_path();
  options.timeout = std::chrono::seconds(1);
  auto start = std::chrono::steady_clock::now();
  SubprocessResult r = RunSubprocess({"sh", "-c", "sleep 100 & sleep 100"}, options);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 137);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_FALSE(r.output_held_open) << "the background sleep survived the group kill";
}

TEST(SubprocessTest, MissingTerminalIsAStartError) {
  SubprocessOptions options;
  options.controlling_tty = "/dev/pts/no-such-terminal";
  SubprocessResult r = RunSubprocess({"/bin/true"}, options);
  EXPECT_EQ(r.status, -1);
  EXPECT_NE(r.start_error.find("open(/dev/pts/no-such-terminal): No such file or directory"),
            std::string::npos)
      << r.start_error;
}

}  // namespace
}  // namespace snare::util
