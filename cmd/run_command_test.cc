#include "cmd/run_command.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"

namespace snare::cmd {
namespace {

using Args = std::vector<std::string>;
using policy::Action;
using policy::Disposition;
using StatsFormat = sentry::RunConfig::StatsFormat;

constexpr int kGetppid = 110;
constexpr int kEperm = 1;
constexpr int kEacces = 13;

// What ParseRunArgs gives, with the fields the tests look at.
struct Parsed {
  std::string platform;
  sentry::RunConfig c;
  const std::string& stats_file() const { return c.stats_file; }
};

std::expected<Parsed, std::string> Parse(const Args& args) {
  auto o = ParseRunArgs(args);
  if (!o) {
    EXPECT_EQ(o.error().status, 2) << o.error().text;
    return std::unexpected(o.error().text);
  }
  return Parsed{o->platform, o->config};
}

// The error of a parse that must fail ("" and a test failure if it succeeded).
std::string ErrorOf(const Args& args) {
  auto o = Parse(args);
  if (o) {
    ADD_FAILURE() << "parse succeeded";
    return "";
  }
  return o.error();
}

Disposition Of(const Parsed& p, int nr) { return p.c.policy.entries[nr].fallback; }

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(RunOptionsTest, Defaults) {
  auto o = Parse({"prog", "a", "b"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "systrap");
  EXPECT_EQ(o->c.stats, StatsFormat::kNone);
  EXPECT_EQ(o->c.stats_file, "");
  EXPECT_FALSE(o->c.trace);
  EXPECT_EQ(o->c.trace_file, "");
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kPassthrough, 0}));
  EXPECT_EQ(Of(*o, 101 /* ptrace */), (Disposition{Action::kDeny, kEperm}));
  EXPECT_EQ(o->c.spin_iterations, 2000u);
  EXPECT_TRUE(o->c.patch);
  EXPECT_EQ(o->c.argv, (Args{"prog", "a", "b"}));
}

TEST(RunOptionsTest, PatchOnByDefaultForSystrapOnly) {
  auto off = Parse({"--no-patch", "prog"});
  ASSERT_TRUE(off) << off.error();
  EXPECT_FALSE(off->c.patch);
  auto on = Parse({"--no-patch", "--patch", "prog"});
  ASSERT_TRUE(on) << on.error();
  EXPECT_TRUE(on->c.patch);
  // inproc decides inside the guest: the default does not apply, an explicit --patch is an
  // error and --no-patch changes nothing.
  auto inproc = Parse({"--platform=inproc", "prog"});
  ASSERT_TRUE(inproc) << inproc.error();
  EXPECT_FALSE(inproc->c.patch);
  EXPECT_TRUE(Parse({"--platform=inproc", "--no-patch", "prog"}));
  auto bad = Parse({"--platform=inproc", "--patch", "prog"});
  ASSERT_FALSE(bad);
  EXPECT_TRUE(Contains(bad.error(), "--patch rewrites syscall sites for systrap")) << bad.error();
}

TEST(RunOptionsTest, PatchAfter) {
  auto o = Parse({"prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.patch_after, 16u);
  o = Parse({"--patch-after=1", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.patch_after, 1u);
  for (const char* bad : {"--patch-after=0", "--patch-after=-3", "--patch-after=x",
                          "--patch-after=65536", "--patch-after="}) {
    auto r = Parse({bad, "prog"});
    ASSERT_FALSE(r) << bad;
    EXPECT_TRUE(Contains(r.error(), "--patch-after wants a count of traps from 1 to 65535"))
        << r.error();
  }
  auto off = Parse({"--no-patch", "--patch-after=4", "prog"});
  ASSERT_FALSE(off);
  EXPECT_TRUE(Contains(off.error(), "--patch-after is for systrap's syscall patching"))
      << off.error();
}

TEST(RunOptionsTest, Platform) {
  auto o = Parse({"--platform=inproc", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "inproc");
  o = Parse({"--platform=inproc", "--platform=systrap", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "systrap");

  std::string err = ErrorOf({"--platform=bogus", "prog"});
  EXPECT_TRUE(Contains(err, "unknown platform")) << err;
  EXPECT_TRUE(Contains(err, "bogus")) << err;
  EXPECT_TRUE(Contains(err, "systrap")) << err;
  EXPECT_TRUE(Contains(err, "inproc")) << err;
  err = ErrorOf({"--platform=", "prog"});
  EXPECT_TRUE(Contains(err, "unknown platform")) << err;
}

TEST(RunOptionsTest, Stats) {
  auto o = Parse({"--stats", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kTable);
  EXPECT_EQ(o->c.stats_file, "");

  o = Parse({"--stats=json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kJson);

  o = Parse({"--stats=table", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kTable);

  std::string err = ErrorOf({"--stats=xml", "prog"});
  EXPECT_TRUE(Contains(err, "xml")) << err;
  EXPECT_TRUE(Contains(err, "--stats")) << err;
}

TEST(RunOptionsTest, StatsFileImpliesTable) {
  auto o = Parse({"--stats-file=out.txt", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kTable);
  EXPECT_EQ(o->c.stats_file, "out.txt");

  // An explicit format wins, in either order.
  o = Parse({"--stats=json", "--stats-file=out.json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kJson);
  EXPECT_EQ(o->c.stats_file, "out.json");
  o = Parse({"--stats-file=out.json", "--stats=json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kJson);

  std::string err = ErrorOf({"--stats-file=", "prog"});
  EXPECT_TRUE(Contains(err, "--stats-file")) << err;
}

TEST(RunOptionsTest, Trace) {
  auto o = Parse({"--trace", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->c.trace);
  EXPECT_EQ(o->c.trace_file, "");

  o = Parse({"--trace=/tmp/trace.txt", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->c.trace);
  EXPECT_EQ(o->c.trace_file, "/tmp/trace.txt");

  std::string err = ErrorOf({"--trace=", "prog"});
  EXPECT_TRUE(Contains(err, "--trace")) << err;
}

TEST(RunOptionsTest, DenyWithErrnoName) {
  auto o = Parse({"--deny=getppid:EACCES", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kDeny, kEacces}));
}

TEST(RunOptionsTest, DenyWithErrnoNumber) {
  auto o = Parse({"--deny=getppid:13", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kDeny, kEacces}));

  o = Parse({"--deny=getppid:4095", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid).err, 4095);
}

TEST(RunOptionsTest, DenyDefaultsToEperm) {
  auto o = Parse({"--deny=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kDeny, kEperm}));
}

TEST(RunOptionsTest, BadDenials) {
  std::string err = ErrorOf({"--deny=nosuchcall", "prog"});
  EXPECT_TRUE(Contains(err, "unknown syscall")) << err;
  EXPECT_TRUE(Contains(err, "nosuchcall")) << err;

  for (const char* bad : {"EBOGUS", "0", "-1", "4096", "13x", "0x0d"}) {
    SCOPED_TRACE(bad);
    err = ErrorOf({std::string("--deny=getppid:") + bad, "prog"});
    EXPECT_TRUE(Contains(err, "unknown errno")) << err;
    EXPECT_TRUE(Contains(err, bad)) << err;
  }
}

TEST(RunOptionsTest, Kill) {
  auto o = Parse({"--kill=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid).action, Action::kKill);

  std::string err = ErrorOf({"--kill=getppid:EPERM", "prog"});
  EXPECT_TRUE(Contains(err, "--kill takes no errno")) << err;
  err = ErrorOf({"--kill=nosuchcall", "prog"});
  EXPECT_TRUE(Contains(err, "nosuchcall")) << err;
}

// Overrides apply in command-line order: the last one for a syscall wins.
TEST(RunOptionsTest, OverridesKeepCommandLineOrder) {
  auto o = Parse({"--deny=openat:ENOENT", "--kill=getppid", "--deny=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, abi::FindSyscallByName("openat")->nr), (Disposition{Action::kDeny, 2}));
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kDeny, kEperm}));
  o = Parse({"--deny=getppid", "--kill", "getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, kGetppid).action, Action::kKill);
}

TEST(RunOptionsTest, Spin) {
  auto o = Parse({"--spin=0", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.spin_iterations, 0u);
  o = Parse({"--spin=10000000", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.spin_iterations, 10000000u);

  for (const char* bad : {"abc", "", "10000001", "-1", "12abc", "99999999999999999999999"}) {
    SCOPED_TRACE(bad);
    std::string err = ErrorOf({std::string("--spin=") + bad, "prog"});
    EXPECT_TRUE(Contains(err, "--spin")) << err;
  }
}

TEST(RunOptionsTest, DoubleDashEndsOptions) {
  auto o = Parse({"--trace", "--", "--stats", "x"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->c.trace);
  EXPECT_EQ(o->c.stats, StatsFormat::kNone);
  EXPECT_EQ(o->c.argv, (Args{"--stats", "x"}));

  o = Parse({"--", "--"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.argv, (Args{"--"}));

  o = Parse({"--", "--weird-name"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.argv, (Args{"--weird-name"}));
}

TEST(RunOptionsTest, OptionsStopAtTheProgram) {
  auto o = Parse({"prog", "--trace", "--", "--bogus"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_FALSE(o->c.trace);
  EXPECT_EQ(o->c.argv, (Args{"prog", "--trace", "--", "--bogus"}));
}

TEST(RunOptionsTest, MissingProgram) {
  EXPECT_TRUE(Contains(ErrorOf({}), "no program")) << ErrorOf({});
  EXPECT_TRUE(Contains(ErrorOf({"--trace"}), "no program"));
  EXPECT_TRUE(Contains(ErrorOf({"--trace", "--"}), "no program"));
}

TEST(RunOptionsTest, UnknownOption) {
  for (const char* bad : {"--bogus", "--tracefile=x", "--statsjson", "-x"}) {
    SCOPED_TRACE(bad);
    std::string err = ErrorOf({bad, "prog"});
    EXPECT_TRUE(Contains(err, "unknown option")) << err;
    EXPECT_TRUE(Contains(err, bad)) << err;
  }
}

// Options that take a value take the next argument too: "--platform inproc".
TEST(RunOptionsTest, ValuesAfterASpace) {
  auto o = Parse({"--platform", "inproc", "--stats-file", "s.json", "--trace-file", "t.txt",
                  "--deny", "getppid:EACCES", "--spin", "7", "--", "true"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "inproc");
  EXPECT_EQ(o->c.stats_file, "s.json");
  EXPECT_EQ(o->c.stats, StatsFormat::kTable);
  EXPECT_TRUE(o->c.trace);
  EXPECT_EQ(o->c.trace_file, "t.txt");
  EXPECT_EQ(Of(*o, kGetppid), (Disposition{Action::kDeny, kEacces}));
  EXPECT_EQ(o->c.spin_iterations, 7u);
  EXPECT_EQ(o->c.argv, (Args{"true"}));

  // So the argument after such an option is its value, never the program.
  std::string err = ErrorOf({"--platform", "prog"});
  EXPECT_TRUE(Contains(err, "unknown platform 'prog'")) << err;
  err = ErrorOf({"--spin", "prog"});
  EXPECT_TRUE(Contains(err, "--spin wants a count")) << err;
  err = ErrorOf({"--deny", "prog"});
  EXPECT_TRUE(Contains(err, "unknown syscall 'prog'")) << err;
  for (const char* needs : {"--platform", "--stats-file", "--spin", "--deny", "--trace-file"}) {
    err = ErrorOf({needs});
    EXPECT_TRUE(Contains(err, needs)) << err;
    EXPECT_TRUE(Contains(err, "needs a value")) << err;
  }
}

// --trace and --stats take a value only after '=': the next argument is the program.
TEST(RunOptionsTest, FlagsWithOptionalValuesNeverTakeTheProgram) {
  auto o = Parse({"--trace", "ls", "-l"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->c.trace);
  EXPECT_EQ(o->c.trace_file, "");
  EXPECT_EQ(o->c.argv, (Args{"ls", "-l"}));
  o = Parse({"--stats", "json"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->c.stats, StatsFormat::kTable);
  EXPECT_EQ(o->c.argv, (Args{"json"}));
}

TEST(RunOptionsTest, Help) {
  auto o = ParseRunArgs({"--help"});
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().status, 0);
  for (const char* option : {"usage: snare run", "--platform", "--stats", "--stats-file", "--trace",
                             "--trace-file", "--deny", "--kill", "--spin"}) {
    EXPECT_TRUE(Contains(o.error().text, option)) << o.error().text;
  }
  // After the program, --help belongs to the program.
  auto p = Parse({"ls", "--help"});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->c.argv, (Args{"ls", "--help"}));
}

// A syscall stands for its group of aliases; @NAME names a group.
TEST(RunOptionsTest, RulesCoverEveryAlias) {
  auto nr = [](const char* name) { return abi::FindSyscallByName(name)->nr; };
  auto o = Parse({"--kill=mkdir", "--deny=open", "--deny=@unlink:EACCES", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(Of(*o, nr("mkdir")).action, Action::kKill);
  EXPECT_EQ(Of(*o, nr("mkdirat")).action, Action::kKill);
  for (const char* name : {"open", "openat", "openat2", "creat", "open_by_handle_at"}) {
    EXPECT_EQ(Of(*o, nr(name)), (Disposition{Action::kDeny, kEperm})) << name;
  }
  for (const char* name : {"unlink", "unlinkat", "rmdir"}) {
    EXPECT_EQ(Of(*o, nr(name)), (Disposition{Action::kDeny, kEacces})) << name;
  }
  EXPECT_EQ(Of(*o, kGetppid).action, Action::kPassthrough);

  std::string err = ErrorOf({"--kill=mkdri", "prog"});
  EXPECT_TRUE(Contains(err, "did you mean mkdir?")) << err;
  err = ErrorOf({"--deny=@fileopen", "prog"});
  EXPECT_TRUE(Contains(err, "did you mean @file-open?")) << err;
}

TEST(RunOptionsTest, ListGroups) {
  auto o = ParseRunArgs({"--list-groups"});
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().status, 0);
  EXPECT_TRUE(Contains(o.error().text, "@file-open")) << o.error().text;
  EXPECT_TRUE(Contains(o.error().text, "mkdirat")) << o.error().text;
}

// The sandbox's mounts: the profile's, then the options' in command-line order.
TEST(RunOptionsTest, MountsKeepCommandLineOrder) {
  using Kind = sandbox::MountSpec::Kind;
  auto o = Parse({"--tmpfs", "/a", "--ro-bind", "/usr", "/b", "--bind", "/tmp", "/c/", "--dev",
                  "/d", "--proc", "/e", "--tmpfs=/f", "prog"});
  ASSERT_TRUE(o) << o.error();
  const auto& m = o->c.sandbox.mounts;
  ASSERT_GE(m.size(), 6u);
  const size_t first = m.size() - 6;
  EXPECT_EQ(m[first].kind, Kind::kTmpfs);
  EXPECT_EQ(m[first].target, "/a");
  EXPECT_EQ(m[first + 1].kind, Kind::kRoBind);
  EXPECT_EQ(m[first + 1].source, "/usr");
  EXPECT_EQ(m[first + 1].target, "/b");
  EXPECT_EQ(m[first + 2].kind, Kind::kBind);
  EXPECT_EQ(m[first + 2].target, "/c");
  EXPECT_EQ(m[first + 3].kind, Kind::kDev);
  EXPECT_EQ(m[first + 4].kind, Kind::kProc);
  EXPECT_EQ(m[first + 5].target, "/f");
  EXPECT_EQ(o->c.argv, (Args{"prog"}));
}

TEST(RunOptionsTest, BadMounts) {
  std::string err = ErrorOf({"--ro-bind", "/nonexistent-snare-src", "/x", "prog"});
  EXPECT_TRUE(Contains(err, "--ro-bind: the source '/nonexistent-snare-src'")) << err;
  err = ErrorOf({"--bind", "/tmp", "x", "prog"});
  EXPECT_TRUE(Contains(err, "--bind: the destination 'x' is not an absolute path")) << err;
  err = ErrorOf({"--tmpfs", "/", "prog"});
  EXPECT_TRUE(Contains(err, "--root")) << err;
  err = ErrorOf({"--ro-bind", "/usr"});
  EXPECT_TRUE(Contains(err, "--ro-bind")) << err;
  err = ErrorOf({"--root", "/nonexistent-snare-root", "prog"});
  EXPECT_TRUE(Contains(err, "--root: the source '/nonexistent-snare-root'")) << err;
}

TEST(RunOptionsTest, SandboxSettings) {
  auto o = Parse({"--net=host", "--uid", "0", "--gid=7", "--hostname", "box", "--rlimit",
                  "nofile=64", "--rlimit=core=0", "--time-limit", "1.5", "prog"});
  ASSERT_TRUE(o) << o.error();
  const sandbox::SandboxSpec& sb = o->c.sandbox;
  EXPECT_EQ(sb.network, sandbox::SandboxSpec::Network::kHost);
  EXPECT_EQ(sb.uid, 0u);
  EXPECT_EQ(sb.gid, 7u);
  EXPECT_EQ(sb.hostname, "box");
  // The profile's nproc and as, then the options' nofile (in place of the profile's) and core.
  ASSERT_EQ(sb.rlimits.size(), 4u);
  EXPECT_EQ(sb.rlimits[2].resource, RLIMIT_NOFILE);
  EXPECT_EQ(sb.rlimits[2].soft, 64u);
  EXPECT_EQ(sb.rlimits[3].resource, RLIMIT_CORE);
  EXPECT_EQ(sb.time_limit_s, 1.5);

  struct Bad {
    std::vector<std::string> args;
    const char* says;
  };
  for (const Bad& bad :
       {Bad{{"--net=bridge"}, "--net: unknown network 'bridge'"},
        Bad{{"--uid=-1"}, "--uid: bad id '-1'"}, Bad{{"--gid", "x"}, "--gid: bad id 'x'"},
        Bad{{"--hostname=a b"}, "--hostname: bad hostname"},
        Bad{{"--rlimit", "nofile"}, "--rlimit: bad limit 'nofile'"},
        Bad{{"--rlimit", "open=3"}, "--rlimit: unknown resource 'open'"},
        Bad{{"--time-limit", "0"}, "--time-limit: bad time limit '0'"},
        Bad{{"--profile=trace", "--uid=0"}, "--uid"}}) {
    Args args = bad.args;
    args.push_back("prog");
    std::string err = ErrorOf(args);
    EXPECT_TRUE(Contains(err, bad.says)) << err;
  }
  std::string err = ErrorOf({"--profile=trace", "--tmpfs=/x", "prog"});
  EXPECT_TRUE(Contains(err, "--profile=trace does not confine")) << err;
  // Limits work unconfined too.
  EXPECT_TRUE(Parse({"--profile=trace", "--rlimit=nofile=64", "--time-limit=1", "prog"}));
}

// A policy file, with the command line overriding its settings and adding to its lists.
TEST(RunOptionsTest, PolicyFile) {
  const char* tmp = getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/run-options-policy.json";
  {
    std::ofstream(path) << R"({"hostname": "file", "uid": 5, "mounts": [{"tmpfs": "/a"}],
      "syscalls": {"deny": ["getppid:EACCES", "mkdir"]}})";
  }
  auto o = Parse({"--policy", path, "--hostname=cli", "--tmpfs=/b", "--kill=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  const sandbox::SandboxSpec& sb = o->c.sandbox;
  EXPECT_EQ(sb.hostname, "cli");
  EXPECT_EQ(sb.uid, 5u);
  ASSERT_GE(sb.mounts.size(), 2u);
  EXPECT_EQ(sb.mounts[sb.mounts.size() - 2].target, "/a");
  EXPECT_EQ(sb.mounts.back().target, "/b");
  EXPECT_EQ(Of(*o, kGetppid).action, Action::kKill);
  EXPECT_EQ(Of(*o, abi::FindSyscallByName("mkdirat")->nr), (Disposition{Action::kDeny, kEperm}));

  // The file's profile, unless the command line names one.
  { std::ofstream(path) << R"({"profile": "trace"})"; }
  o = Parse({"--policy", path, "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_FALSE(o->c.sandbox.confine);
  EXPECT_EQ(o->c.profile, "trace");
  o = Parse({"--policy", path, "--profile=sandbox", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->c.sandbox.confine);

  { std::ofstream(path) << R"({"hostnam": "x"})"; }
  std::string err = ErrorOf({"--policy", path, "prog"});
  EXPECT_TRUE(Contains(err, path + ": hostnam: unknown key")) << err;
  err = ErrorOf({"--policy", path + ".missing", "prog"});
  EXPECT_TRUE(Contains(err, "cannot read the policy file")) << err;
  std::remove(path.c_str());
}

TEST(RunOptionsTest, HelpListsTheSandboxOptions) {
  auto o = ParseRunArgs({"--help"});
  ASSERT_FALSE(o);
  for (const char* option :
       {"--ro-bind", "--bind", "--tmpfs", "--dev", "--proc", "--root", "--net", "--uid", "--gid",
        "--hostname", "--rlimit", "--time-limit", "--policy", "--list-groups"}) {
    EXPECT_TRUE(Contains(o.error().text, option)) << option << "\n" << o.error().text;
  }
}

}  // namespace
}  // namespace snare::cmd
