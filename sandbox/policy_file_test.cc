#include "sandbox/policy_file.h"

#include <asm/unistd_64.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace snare::sandbox {
namespace {

using Kind = MountSpec::Kind;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::expected<SandboxOptions, std::string> Parse(const std::string& text) {
  return ParsePolicyFile(text, "p.json", "/");
}

// The error of a file that must be refused.
std::string ErrorOf(const std::string& text) {
  auto o = Parse(text);
  if (o) {
    ADD_FAILURE() << "accepted: " << text;
    return "";
  }
  return o.error();
}

TEST(PolicyFileTest, EverySetting) {
  auto o = Parse(R"({
    "profile": "sandbox",
    "mounts": [{"ro-bind": ["/usr", "/mnt/usr"]}, {"bind": "/tmp"}, {"tmpfs": "/scratch/"},
               {"dev": "/dev2"}, {"proc": "/proc2"}],
    "net": "host", "uid": 1000, "gid": 0, "hostname": "box",
    "rlimits": {"nofile": 256, "core": "0:0"},
    "time_limit": 1.5, "tmpfs_size": "512M", "memory": "1G", "pids": 200,
    "syscalls": {"kill": ["ptrace"], "deny": ["mkdir", "@file-open:EACCES"], "allow": ["keyctl"]}
  })");
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->profile, "sandbox");
  ASSERT_EQ(o->mounts.size(), 5u);
  EXPECT_EQ(o->mounts[0].kind, Kind::kRoBind);
  EXPECT_EQ(o->mounts[0].source, "/usr");
  EXPECT_EQ(o->mounts[0].target, "/mnt/usr");
  EXPECT_EQ(o->mounts[1].kind, Kind::kBind);
  EXPECT_EQ(o->mounts[1].source, "/tmp");
  EXPECT_EQ(o->mounts[1].target, "/tmp");
  EXPECT_EQ(o->mounts[2].kind, Kind::kTmpfs);
  EXPECT_EQ(o->mounts[2].target, "/scratch");
  EXPECT_EQ(o->mounts[3].kind, Kind::kDev);
  EXPECT_EQ(o->mounts[4].kind, Kind::kProc);
  EXPECT_EQ(o->network, SandboxSpec::Network::kHost);
  EXPECT_EQ(o->uid, 1000u);
  EXPECT_EQ(o->gid, 0u);
  EXPECT_EQ(o->hostname, "box");
  ASSERT_EQ(o->rlimits.size(), 2u);
  EXPECT_EQ(o->time_limit_s, 1.5);
  EXPECT_EQ(o->tmpfs_size, uint64_t{512} << 20);
  EXPECT_EQ(o->memory, uint64_t{1} << 30);
  EXPECT_EQ(o->pids, 200u);
  // allow rules, then deny rules, then kill rules, each in the file's order.
  ASSERT_EQ(o->syscall_rules.size(), 4u);
  EXPECT_EQ(o->syscall_rules[0].spec, "keyctl");
  EXPECT_EQ(o->syscall_rules[0].disposition.action, policy::Action::kPassthrough);
  o->syscall_rules.erase(o->syscall_rules.begin());
  EXPECT_EQ(o->syscall_rules[0].spec, "mkdir");
  EXPECT_EQ(o->syscall_rules[0].nrs, (std::vector<uint32_t>{__NR_mkdir, __NR_mkdirat}));
  EXPECT_EQ(o->syscall_rules[1].disposition.err, EACCES);
  EXPECT_EQ(o->syscall_rules[2].disposition.action, policy::Action::kKill);
}

TEST(PolicyFileTest, EmptyObjectChangesNothing) {
  auto o = Parse("{}");
  ASSERT_TRUE(o) << o.error();
  EXPECT_FALSE(o->profile);
  EXPECT_TRUE(o->mounts.empty());
  EXPECT_TRUE(o->syscall_rules.empty());
}

TEST(PolicyFileTest, BadJsonSaysWhere) {
  std::string err = ErrorOf("{\n  \"net\": \"none\",\n  \"uid\": 1000,,\n}");
  EXPECT_TRUE(Contains(err, "p.json: not valid JSON")) << err;
  EXPECT_TRUE(Contains(err, "line 3, column")) << err;
  err = ErrorOf("");
  EXPECT_TRUE(Contains(err, "not valid JSON")) << err;
  err = ErrorOf("{} {}");
  EXPECT_TRUE(Contains(err, "not valid JSON")) << err;
}

TEST(PolicyFileTest, UnknownKeys) {
  std::string err = ErrorOf(R"({"network": "none"})");
  EXPECT_TRUE(Contains(err, "p.json: network: unknown key")) << err;
  EXPECT_TRUE(Contains(err, "net,")) << err;
  err = ErrorOf(R"({"syscalls": {"pass": ["read"]}})");
  EXPECT_TRUE(Contains(err, "syscalls.pass: unknown key (known: allow, deny, kill)")) << err;
  err = ErrorOf(R"({"mounts": [{"overlay": "/x"}]})");
  EXPECT_TRUE(Contains(err, "mounts[0].overlay: unknown mount kind")) << err;
}

TEST(PolicyFileTest, WrongTypes) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {
           Case{"[]", "the top level: expected an object, got an array"},
           Case{R"({"uid": "1000"})", "uid: expected a number, got a string"},
           Case{R"({"uid": -1})", "uid: bad id '-1'"},
           Case{R"({"uid": 1.5})", "uid: bad id"},
           Case{R"({"hostname": 7})", "hostname: expected a string, got a number"},
           Case{R"({"net": true})", "net: expected a string, got a boolean"},
           Case{R"({"time_limit": "30"})", "time_limit: expected seconds as a number"},
           Case{R"({"time_limit": 0})", "time_limit: bad time limit"},
           Case{R"({"rlimits": [1]})", "rlimits: expected an object"},
           Case{R"({"rlimits": {"nofile": -3}})", "rlimits.nofile: expected a number or"},
           Case{R"({"rlimits": {"files": 3}})", "rlimits.files: unknown resource 'files'"},
           Case{R"({"mounts": {"tmpfs": "/x"}})", "mounts: expected an array"},
           Case{R"({"mounts": [{"tmpfs": "/x", "dev": "/y"}]})", "mounts[0]: expected an object"},
           Case{R"({"mounts": [{"tmpfs": ["/x"]}]})", "mounts[0].tmpfs: expected a string"},
           Case{R"({"mounts": [{"bind": ["/tmp"]}]})", "mounts[0].bind: expected [\"SRC\""},
           Case{R"({"syscalls": ["mkdir"]})", "syscalls: expected an object"},
           Case{R"({"syscalls": {"deny": "mkdir"}})", "syscalls.deny: expected an array"},
           Case{R"({"syscalls": {"deny": [3]}})", "syscalls.deny[0]: expected a string"},
           Case{R"({"profile": "box"})", "profile: unknown profile 'box'"},
       }) {
    std::string err = ErrorOf(c.text);
    EXPECT_TRUE(Contains(err, std::string("p.json: ") + c.says)) << c.text << "\n" << err;
  }
}

TEST(PolicyFileTest, UnknownSyscalls) {
  std::string err = ErrorOf(R"({"syscalls": {"deny": ["mkdir", "opn"]}})");
  EXPECT_TRUE(Contains(err, "p.json: syscalls.deny[1]: unknown syscall 'opn'")) << err;
  EXPECT_TRUE(Contains(err, "did you mean open?")) << err;
  err = ErrorOf(R"({"syscalls": {"kill": ["@fileopen"]}})");
  EXPECT_TRUE(Contains(err, "syscalls.kill[0]: unknown syscall group '@fileopen'")) << err;
  err = ErrorOf(R"({"syscalls": {"kill": ["ptrace:EPERM"]}})");
  EXPECT_TRUE(Contains(err, "a kill rule takes no errno")) << err;
  err = ErrorOf(R"({"syscalls": {"deny": ["openat:EWHAT"]}})");
  EXPECT_TRUE(Contains(err, "unknown errno 'EWHAT'")) << err;
}

TEST(PolicyFileTest, BadPaths) {
  std::string err = ErrorOf(R"({"mounts": [{"ro-bind": ["/nonexistent-snare", "/x"]}]})");
  EXPECT_TRUE(Contains(err, "mounts[0].ro-bind: the source '/nonexistent-snare'")) << err;
  EXPECT_TRUE(Contains(err, "No such file or directory")) << err;
  err = ErrorOf(R"({"mounts": [{"tmpfs": "scratch"}]})");
  EXPECT_TRUE(Contains(err, "mounts[0].tmpfs: the destination 'scratch' is not an absolute"))
      << err;
  err = ErrorOf(R"({"mounts": [{"bind": ["/tmp", "/a/../b"]}]})");
  EXPECT_TRUE(Contains(err, "'..'")) << err;
  err = ErrorOf(R"({"root": "/nonexistent-snare-root"})");
  EXPECT_TRUE(Contains(err, "root: the source '/nonexistent-snare-root'")) << err;
}

TEST(PolicyFileTest, ReadsFilesAndResolvesRelativeSourcesFromTheirDirectory) {
  const char* tmp = getenv("TEST_TMPDIR");
  std::string templ = std::string(tmp ? tmp : "/tmp") + "/policy-XXXXXX";
  ASSERT_NE(mkdtemp(templ.data()), nullptr);
  const std::string dir = templ;
  std::filesystem::create_directory(dir + "/data");
  { std::ofstream(dir + "/p.json") << R"({"mounts": [{"ro-bind": ["data", "/data"]}]})"; }
  auto o = ReadPolicyFile(dir + "/p.json");
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->mounts.size(), 1u);
  char real[PATH_MAX];
  ASSERT_NE(realpath((dir + "/data").c_str(), real), nullptr);
  EXPECT_EQ(o->mounts[0].source, real);

  auto missing = ReadPolicyFile(dir + "/none.json");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(Contains(missing.error(), "cannot read the policy file '" + dir + "/none.json'"))
      << missing.error();
  auto directory = ReadPolicyFile(dir);
  ASSERT_FALSE(directory);
  EXPECT_TRUE(Contains(directory.error(), "Is a directory")) << directory.error();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

}  // namespace
}  // namespace snare::sandbox
