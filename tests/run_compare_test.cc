// Runs commands natively and under `snare run --platform=P --profile=R` and requires identical
// stdout, stderr and exit status. Parameterized over the platforms (systrap, inproc), the
// profiles (sandbox, the default, and trace) and a table of commands: coreutils, shells and
// pipelines, threads, signals, python3, tar and gcc.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

// One command line of a case. In arguments, "{FIXTURE}" expands to the fixture directory
// and an argument "@guest:NAME" to the path of //tests/guests:NAME.
struct Step {
  std::vector<std::string> argv;
  int expected_status = 0;  // natively; checks the case itself is sound
};

struct CompareCase {
  std::string name;
  std::vector<Step> steps;  // run in order, in the same working directory
  std::optional<std::string> stdin_data = std::nullopt;
  // Runs in a fresh empty directory (one per native/snare run) instead of $TEST_TMPDIR.
  bool fresh_cwd = false;
  // Files the steps create in the working directory that must be byte-identical.
  std::vector<std::string> compare_files = {};
  // Output shows file owners or reads files only their owner may: the sandbox runs a root
  // invoker's guest as nobody, so as root these compare under --profile=trace only.
  bool owner_sensitive = false;
};

// Names the case in gtest's parameter printout.
void PrintTo(const CompareCase& c, std::ostream* os) { *os << c.name; }

constexpr char kPythonThreads[] = R"(
import os, threading, time
out = []
lock = threading.Lock()
def work(i):
    for j in range(50):
        with lock:
            out.append(i * 1000 + j)
        if j % 10 == 0:
            os.getppid()
            time.sleep(0.001)
threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads: t.start()
for t in threads: t.join()
s = sorted(out)
print(len(out), s[:3], s[-3:], sum(out))
)";

// subprocess closes the child's inherited fds (close_range on current Pythons).
constexpr char kPythonSubprocess[] = R"(
import subprocess
r = subprocess.run(["sh", "-c", "echo out; echo err >&2; exit 3"], capture_output=True)
print(r.returncode, r.stdout, r.stderr)
print(subprocess.check_output(["echo", "hi"]).decode().strip())
)";

constexpr char kHelloC[] = R"(#include <stdio.h>
int main(int argc, char** argv) {
  printf("hello from a compiled guest, argc=%d\n", argc);
  return 3;
}
)";

Step Cmd(std::vector<std::string> argv, int expected_status = 0) {
  return Step{std::move(argv), expected_status};
}

std::vector<CompareCase> Cases() {
  return {
      {"true", {Cmd({"/bin/true"})}},
      {"false", {Cmd({"/bin/false"}, 1)}},
      {"ls_la_usr", {Cmd({"ls", "-la", "/usr"})}},
      {"ls_la_fixture", {Cmd({"ls", "-la", "{FIXTURE}/tree"})}, std::nullopt, false, {}, true},
      {"cat_file", {Cmd({"cat", "{FIXTURE}/data.txt"})}},
      {"cat_stdin", {Cmd({"cat"})}, "from stdin\nline two\n"},
      {"sort_file", {Cmd({"sort", "{FIXTURE}/data.txt"})}},
      {"sha256sum_file", {Cmd({"sha256sum", "{FIXTURE}/data.txt"})}},
      {"sh_exec_ls", {Cmd({"sh", "-c", "exec ls /"})}},
      {"env_sh_echo", {Cmd({"env", "X=1", "sh", "-c", "echo $X"})}},
      {"seq_sort_head_pipeline", {Cmd({"sh", "-c", "seq 1 10000 | sort -rn | head -3"})}},
      {"ls_root_wc", {Cmd({"sh", "-c", "ls / | wc -l"})}},
      // The guest's own pid names it in /proc (the trace profile's pid namespace once showed
      // the host's /proc, where that pid was another process).
      {"proc_of_own_pid", {Cmd({"sh", "-c", "tr '\\0' ' ' < /proc/$$/cmdline"})}},
      {"threads_guest", {Cmd({"@guest:threads_guest"})}},
      {"many_threads_guest", {Cmd({"@guest:many_threads_guest", "200"})}},
      // With 965 threads held the sentry checks every claimed slot for a dead thread: a slot
      // claimed a moment ago, still naming its last (dead) thread, must not be freed.
      {"thread_churn_guest", {Cmd({"@guest:thread_churn_guest", "965", "4000"})}},
      {"python_threading", {Cmd({"/usr/bin/python3", "-c", kPythonThreads})}},
      {"python_subprocess", {Cmd({"/usr/bin/python3", "-c", kPythonSubprocess})}},
      {"signals_guest", {Cmd({"@guest:signals_guest"})}},
      {"sh_exit_7", {Cmd({"sh", "-c", "exit 7"}, 7)}},
      // /proc/self/exe names the program, not the stub: readlink, and busybox's applets,
      // which it runs by re-executing itself through that path.
      {"readlink_proc_self_exe", {Cmd({"readlink", "/proc/self/exe"})}},
      {"busybox_reexec_applets",
       {Cmd({"env", "PATH=/nonexistent", "/bin/busybox", "sh", "-c", "echo a b c | wc -w"})}},
      {"sh_kill_term_self", {Cmd({"sh", "-c", "kill -TERM $$"}, 143)}},
      {"python_files", {Cmd({"/usr/bin/python3", "@guest:files.py"})}, std::nullopt, true},
      {"tar_roundtrip",
       {Cmd({"sh", "-c",
             "tar czf a.tgz -C {FIXTURE} tree && tar tzvf a.tgz && mkdir x && "
             "tar xzf a.tgz -C x && diff -r {FIXTURE}/tree x/tree && echo identical"})},
       std::nullopt,
       true,
       {},
       true},
      {"gcc_compile_link_run",
       {Cmd({"gcc", "-c", "{FIXTURE}/hello.c", "-o", "hello.o"}),
        Cmd({"gcc", "hello.o", "-o", "hello"}), Cmd({"./hello", "arg"}, 3)},
       std::nullopt,
       true,
       {"hello.o", "hello"}},
  };
}

bool WriteFile(const std::string& path, const std::string& data, mode_t mode = 0644) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  return out.good() && chmod(path.c_str(), mode) == 0;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Fixed timestamps make `ls -la` and `tar tv` output reproducible.
void SetFixedTime(const std::string& path) {
  timespec times[2] = {{1700000000, 0}, {1700000000, 0}};
  utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);
}

class RunCompareTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, CompareCase>> {
 protected:
  static void SetUpTestSuite() {
    fixture_ = MakeTempDir("fixture-");
    ASSERT_FALSE(fixture_.empty());
    std::string data;
    for (int i = 0; i < 2000; ++i) {
      data += "line " + std::to_string((i * 7919) % 1013) + " word" + std::to_string(i % 17) + "\n";
    }
    const std::string tree = fixture_ + "/tree";
    ASSERT_TRUE(WriteFile(fixture_ + "/data.txt", data));
    ASSERT_TRUE(WriteFile(fixture_ + "/hello.c", kHelloC));
    ASSERT_EQ(mkdir(tree.c_str(), 0755), 0);
    ASSERT_EQ(mkdir((tree + "/sub").c_str(), 0755), 0);
    ASSERT_EQ(mkdir((tree + "/sub/deeper").c_str(), 0750), 0);
    ASSERT_EQ(mkdir((tree + "/empty").c_str(), 0700), 0);
    ASSERT_TRUE(WriteFile(tree + "/a.txt", "alpha\n"));
    ASSERT_TRUE(WriteFile(tree + "/script.sh", "#!/bin/sh\necho hi\n", 0755));
    std::string binary;
    for (int i = 0; i < 100000; ++i) binary += static_cast<char>((i * 31) & 0xff);
    ASSERT_TRUE(WriteFile(tree + "/b.bin", binary, 0600));
    ASSERT_TRUE(WriteFile(tree + "/sub/c.txt", data.substr(0, 5000)));
    ASSERT_TRUE(WriteFile(tree + "/sub/deeper/d.txt", "delta\n", 0444));
    ASSERT_EQ(symlink("a.txt", (tree + "/link-to-a").c_str()), 0);
    for (const char* p : {"/a.txt", "/script.sh", "/b.bin", "/sub/c.txt", "/sub/deeper/d.txt",
                          "/link-to-a", "/sub/deeper", "/sub", "/empty", ""}) {
      SetFixedTime(tree + p);
    }
    SetFixedTime(fixture_ + "/data.txt");
    SetFixedTime(fixture_ + "/hello.c");
    SetFixedTime(fixture_);
  }

  // Expands {FIXTURE} and @guest:NAME in argv.
  static std::vector<std::string> Expand(const std::vector<std::string>& argv) {
    std::vector<std::string> out;
    for (std::string arg : argv) {
      if (arg.starts_with("@guest:")) {
        auto path = GuestPath(arg.substr(7));
        EXPECT_TRUE(path.has_value()) << path.error();
        out.push_back(path.value_or(arg));
        continue;
      }
      for (size_t pos; (pos = arg.find("{FIXTURE}")) != std::string::npos;) {
        arg.replace(pos, 9, fixture_);
      }
      out.push_back(arg);
    }
    return out;
  }

  static std::string fixture_;
};

std::string RunCompareTest::fixture_;

struct ModeRun {
  std::string cwd;
  std::vector<std::vector<std::string>> argvs;
  std::vector<util::SubprocessResult> results;
  std::vector<std::string> files;
};

TEST_P(RunCompareTest, SameOutputAndStatusAsNative) {
  const std::string& platform = std::get<0>(GetParam());
  const std::string& profile = std::get<1>(GetParam());
  const CompareCase& c = std::get<2>(GetParam());
  if (c.owner_sensitive && profile == "sandbox" && getuid() == 0) {
    GTEST_SKIP() << "as root the sandbox's guest is nobody, so owners differ by design; "
                    "covered by the trace profile and by unprivileged runs";
  }
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();

  auto run_mode = [&](bool under_snare) {
    ModeRun mode;
    mode.cwd = c.fresh_cwd
                   ? MakeTempDir(c.name +
                                 (under_snare ? "-" + platform + "-" + profile + "-" : "-native-"))
                   : TestTmpDir();
    util::SubprocessOptions options;
    options.stdin_data = c.stdin_data;
    options.cwd = mode.cwd;
    options.timeout = std::chrono::seconds(180);
    for (const Step& step : c.steps) {
      std::vector<std::string> argv = Expand(step.argv);
      if (under_snare) {
        std::vector<std::string> wrapped = {*snare, "run"};
        for (const std::string& f : PlatformFlags(platform)) wrapped.push_back(f);
        wrapped.insert(wrapped.end(), {"--profile=" + profile, "--"});
        wrapped.insert(wrapped.end(), argv.begin(), argv.end());
        argv = std::move(wrapped);
      }
      mode.results.push_back(util::RunSubprocess(argv, options));
      mode.argvs.push_back(std::move(argv));
    }
    for (const std::string& f : c.compare_files) mode.files.push_back(ReadFile(mode.cwd + "/" + f));
    return mode;
  };

  ModeRun native = run_mode(false);
  ModeRun snared = run_mode(true);

  for (size_t i = 0; i < c.steps.size(); ++i) {
    const util::SubprocessResult& n = native.results[i];
    const util::SubprocessResult& s = snared.results[i];
    const std::string cd = c.fresh_cwd ? "cd \"$(mktemp -d)\" && " : "";
    bool uses_fixture = false;
    for (const std::string& arg : c.steps[i].argv) {
      uses_fixture |= arg.find("{FIXTURE}") != std::string::npos;
    }
    const std::string fixture_note =
        uses_fixture ? " (the fixture directory is made by SetUpTestSuite)" : "";
    const std::string repro = "reproduce: " + cd + util::ShellQuote(ForDisplay(snared.argvs[i])) +
                              "\n(native: " + util::ShellQuote(ForDisplay(native.argvs[i])) + ")" +
                              fixture_note + "\n";
    SCOPED_TRACE("step " + std::to_string(i + 1) + " of " + c.name + "\n" + repro);
    ASSERT_EQ(n.status, c.steps[i].expected_status)
        << "the native run itself is off (test environment problem):\n"
        << n.Describe();
    EXPECT_FALSE(s.timed_out) << s.Describe();
    EXPECT_FALSE(s.output_held_open) << s.Describe();
    EXPECT_EQ(s.status, n.status) << "snare run:\n" << s.Describe() << "native:\n" << n.Describe();
    EXPECT_EQ(s.stdout_data, n.stdout_data) << "stdout differs";
    EXPECT_EQ(s.stderr_data, n.stderr_data) << "stderr differs";
    if (s.status != n.status) break;
  }
  for (size_t i = 0; i < c.compare_files.size(); ++i) {
    EXPECT_FALSE(native.files[i].empty()) << c.compare_files[i] << " missing natively";
    EXPECT_TRUE(snared.files[i] == native.files[i])
        << c.compare_files[i] << " differs: " << snared.cwd << " vs " << native.cwd << " ("
        << snared.files[i].size() << " vs " << native.files[i].size() << " bytes)";
  }
}

INSTANTIATE_TEST_SUITE_P(Platforms, RunCompareTest,
                         ::testing::Combine(::testing::Values("systrap", "inproc", "systrap-patch"),
                                            ::testing::Values("sandbox", "trace"),
                                            ::testing::ValuesIn(Cases())),
                         [](const ::testing::TestParamInfo<RunCompareTest::ParamType>& info) {
                           std::string platform = std::get<0>(info.param);
                           std::replace(platform.begin(), platform.end(), '-', '_');
                           return platform + "_" + std::get<1>(info.param) + "_" +
                                  std::get<2>(info.param).name;
                         });

}  // namespace
}  // namespace snare::tests
