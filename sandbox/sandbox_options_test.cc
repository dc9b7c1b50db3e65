#include "sandbox/sandbox_options.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "sandbox/profiles.h"

namespace snare::sandbox {
namespace {

using Kind = MountSpec::Kind;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A scratch directory under $TEST_TMPDIR, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    const char* base = getenv("TEST_TMPDIR");
    std::string templ = std::string(base ? base : "/tmp") + "/options-XXXXXX";
    path_ = mkdtemp(templ.data()) ? templ : "";
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(SandboxOptionsTest, MountTargets) {
  EXPECT_EQ(ParseMountTarget("/data"), "/data");
  EXPECT_EQ(ParseMountTarget("//a///b/"), "/a/b");
  for (const char* bad : {"data", "", "./x"}) {
    auto t = ParseMountTarget(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_TRUE(Contains(t.error(), "not an absolute path")) << t.error();
  }
  for (const char* bad : {"/a/../b", "/a/./b", "/.."}) {
    auto t = ParseMountTarget(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_TRUE(Contains(t.error(), "'..'")) << t.error();
  }
  auto root = ParseMountTarget("/");
  ASSERT_FALSE(root);
  EXPECT_TRUE(Contains(root.error(), "--root")) << root.error();
}

TEST(SandboxOptionsTest, MountSources) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_EQ(mkdir((dir.path() + "/sub").c_str(), 0755), 0);
  char real[PATH_MAX];
  ASSERT_NE(realpath(dir.path().c_str(), real), nullptr);
  EXPECT_EQ(ParseMountSource("sub", real), std::string(real) + "/sub");
  EXPECT_EQ(ParseMountSource(std::string(real) + "/sub/../sub/", "/"), std::string(real) + "/sub");
  // A link, in the last component or before it, may be a guest's from an earlier run: it is
  // refused and named with its target, never followed.
  ASSERT_EQ(symlink("/etc", (std::string(real) + "/data").c_str()), 0);
  for (const char* source : {"data", "data/ssl"}) {
    auto linked = ParseMountSource(source, real);
    ASSERT_FALSE(linked) << source << " -> " << *linked;
    EXPECT_TRUE(Contains(linked.error(), std::string(real) + "/data is a symbolic link (to /etc)"))
        << linked.error();
  }
  auto missing = ParseMountSource("/nonexistent-snare-source", "/");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(Contains(missing.error(), "'/nonexistent-snare-source'")) << missing.error();
  EXPECT_TRUE(Contains(missing.error(), "No such file or directory")) << missing.error();
}

TEST(SandboxOptionsTest, Roots) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  auto bare = ParseRoot(dir.path(), "/");
  ASSERT_FALSE(bare);
  EXPECT_TRUE(Contains(bare.error(), "has no /dev")) << bare.error();
  for (const char* sub : {"/dev", "/proc", "/tmp"}) {
    ASSERT_EQ(mkdir((dir.path() + sub).c_str(), 0755), 0);
  }
  EXPECT_TRUE(ParseRoot(dir.path(), "/")) << ParseRoot(dir.path(), "/").error();
  auto file = ParseRoot("/etc/passwd", "/");
  ASSERT_FALSE(file);
  EXPECT_TRUE(Contains(file.error(), "not a directory")) << file.error();
}

TEST(SandboxOptionsTest, Values) {
  EXPECT_EQ(ParseNetwork("none"), SandboxSpec::Network::kNone);
  EXPECT_EQ(ParseNetwork("host"), SandboxSpec::Network::kHost);
  EXPECT_TRUE(Contains(ParseNetwork("bridge").error(), "unknown network 'bridge'"));

  EXPECT_EQ(ParseId("0"), 0u);
  EXPECT_EQ(ParseId("4294967294"), 4294967294u);
  for (const char* bad : {"", "-1", "4294967295", "1e3", "x", "12 "}) {
    EXPECT_FALSE(ParseId(bad)) << bad;
  }

  EXPECT_EQ(ParseHostname("box-1.example"), "box-1.example");
  for (std::string bad :
       {std::string(""), std::string(65, 'a'), std::string("a b"), std::string("a/b")}) {
    auto h = ParseHostname(bad);
    ASSERT_FALSE(h) << bad;
    EXPECT_TRUE(Contains(h.error(), "bad hostname")) << h.error();
  }

  EXPECT_EQ(ParseTimeLimit("30"), 30.0);
  EXPECT_EQ(ParseTimeLimit("0.5"), 0.5);
  for (const char* bad : {"0", "-1", "", "x", "1s", "inf", "nan", "99999999999"}) {
    auto t = ParseTimeLimit(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_TRUE(Contains(t.error(), std::string("'") + bad + "'")) << t.error();
  }
  EXPECT_FALSE(CheckTimeLimit(0));

  EXPECT_EQ(ParseMemoryLimit("2G"), uint64_t{2} << 30);
  EXPECT_EQ(ParseMemoryLimit("16M"), uint64_t{16} << 20);
  EXPECT_EQ(ParseMemoryLimit("unlimited"), 0u);
  for (const char* bad : {"", "15M", "x", "-1", "1Q"}) {
    auto m = ParseMemoryLimit(bad);
    ASSERT_FALSE(m) << bad;
    EXPECT_TRUE(Contains(m.error(), std::string("'") + bad + "'")) << m.error();
    EXPECT_TRUE(Contains(m.error(), "at least 16M")) << m.error();
  }
  EXPECT_EQ(ParsePidsLimit("500"), 500u);
  EXPECT_EQ(ParsePidsLimit("unlimited"), 0u);
  for (const char* bad : {"", "1", "0", "x", "4194305"}) {
    auto p = ParsePidsLimit(bad);
    ASSERT_FALSE(p) << bad;
    EXPECT_TRUE(Contains(p.error(), "from 2")) << p.error();
  }
}

TEST(SandboxOptionsTest, MemoryAndPidsBoundsHaveDefaultsAndSayWhenAsked) {
  auto spec = BuildSandboxSpec({}, "/work");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_GE(spec->memory_limit, uint64_t{2} << 30);
  EXPECT_EQ(spec->pids_limit, kDefaultNproc);
  EXPECT_FALSE(spec->memory_asked);
  EXPECT_FALSE(spec->pids_asked);
  SandboxOptions o;
  o.memory = uint64_t{64} << 20;
  o.pids = 0;  // unlimited
  spec = BuildSandboxSpec(o, "/work");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec->memory_limit, uint64_t{64} << 20);
  EXPECT_EQ(spec->pids_limit, 0u);
  EXPECT_TRUE(spec->memory_asked);
  EXPECT_TRUE(spec->pids_asked);
}

TEST(SandboxOptionsTest, Rlimits) {
  auto r = ParseRlimit("nofile=64");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->resource, RLIMIT_NOFILE);
  EXPECT_EQ(r->soft, 64u);
  EXPECT_EQ(r->hard, 64u);

  r = ParseRlimit("as=1G:unlimited");
  rlimit own;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &own), 0);
  if (own.rlim_max == RLIM_INFINITY) {
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->soft, rlim_t{1} << 30);
    EXPECT_EQ(r->hard, RLIM_INFINITY);
  }
  r = ParseRlimit("core=0");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->hard, 0u);

  struct Bad {
    const char* spec;
    const char* says;
  };
  for (const Bad& bad :
       {Bad{"nofile", "NAME=SOFT[:HARD]"}, Bad{"files=3", "unknown resource"},
        Bad{"nofile=x", "bad limit 'x'"}, Bad{"nofile=-1", "bad limit"},
        Bad{"nofile=64:", "missing hard limit"}, Bad{"nofile=64:32", "above its hard limit"},
        Bad{"nofile=99999999999999999999", "bad limit"}, Bad{"fsize=100000000000T", "bad limit"}}) {
    auto b = ParseRlimit(bad.spec);
    ASSERT_FALSE(b) << bad.spec;
    EXPECT_TRUE(Contains(b.error(), bad.says)) << b.error();
  }
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &own), 0);
  if (own.rlim_max != RLIM_INFINITY) {
    auto above = ParseRlimit("nofile=" + std::to_string(own.rlim_max + 1));
    ASSERT_FALSE(above);
    EXPECT_TRUE(Contains(above.error(), "cannot raise")) << above.error();
  }
}

TEST(SandboxOptionsTest, BuildAppliesOptionsAfterTheProfile) {
  SandboxOptions o;
  o.mounts = {{Kind::kTmpfs, "", "/scratch"}, {Kind::kRoBind, "/usr", "/mnt/usr"}};
  o.network = SandboxSpec::Network::kHost;
  o.uid = 0;
  o.gid = 5;
  o.hostname = "box";
  o.rlimits = {{RLIMIT_NOFILE, 64, 64}};
  o.time_limit_s = 2.5;
  auto spec = BuildSandboxSpec(o, "/work");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_TRUE(spec->confine);
  ASSERT_GE(spec->mounts.size(), 2u);
  // The profile's own mounts first, then the options' in order.
  EXPECT_EQ(spec->mounts[0].target, "/dev");
  EXPECT_EQ(spec->mounts[spec->mounts.size() - 2].target, "/scratch");
  EXPECT_EQ(spec->mounts.back().target, "/mnt/usr");
  EXPECT_EQ(spec->network, SandboxSpec::Network::kHost);
  EXPECT_EQ(spec->uid, 0u);
  EXPECT_EQ(spec->gid, 5u);
  EXPECT_EQ(spec->hostname, "box");
  // The profile's nproc, nofile and as, the option's nofile in place of the profile's.
  ASSERT_EQ(spec->rlimits.size(), 3u);
  EXPECT_EQ(spec->rlimits.back().resource, RLIMIT_NOFILE);
  EXPECT_EQ(spec->rlimits.back().hard, 64u);
  EXPECT_EQ(std::count_if(spec->rlimits.begin(), spec->rlimits.end(),
                          [](const RlimitSpec& r) { return r.resource == RLIMIT_NOFILE; }),
            1);
  EXPECT_EQ(spec->time_limit_s, 2.5);
}

TEST(SandboxOptionsTest, SandboxProfileLimitsProcessesFilesAndMemory) {
  auto spec = BuildSandboxSpec({}, "/work");
  ASSERT_TRUE(spec) << spec.error();
  std::map<int, rlim_t> hard;
  for (const RlimitSpec& r : spec->rlimits) {
    EXPECT_EQ(r.soft, r.hard);
    hard[r.resource] = r.hard;
  }
  rlimit own;
  ASSERT_EQ(getrlimit(RLIMIT_NPROC, &own), 0);
  EXPECT_EQ(hard[RLIMIT_NPROC], std::min<rlim_t>(kDefaultNproc, own.rlim_max));
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &own), 0);
  EXPECT_EQ(hard[RLIMIT_NOFILE], std::min<rlim_t>(kDefaultNofile, own.rlim_max));
  ASSERT_TRUE(hard.count(RLIMIT_AS));
  ASSERT_EQ(getrlimit(RLIMIT_AS, &own), 0);
  EXPECT_GE(hard[RLIMIT_AS], std::min<rlim_t>(rlim_t{2} << 30, own.rlim_max));
  SandboxOptions trace;
  trace.profile = "trace";
  auto traced = BuildSandboxSpec(trace, "/work");
  ASSERT_TRUE(traced) << traced.error();
  EXPECT_TRUE(traced->rlimits.empty()) << "the trace profile runs programs as on the host";
}

TEST(SandboxOptionsTest, AnotherRootKeepsDevProcTmp) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  for (const char* sub : {"/dev", "/proc", "/tmp"}) {
    ASSERT_EQ(mkdir((dir.path() + sub).c_str(), 0755), 0);
  }
  SandboxOptions o;
  o.root = dir.path();
  auto spec = BuildSandboxSpec(o, "/work");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec->root, dir.path());
  std::vector<std::string> targets;
  for (const MountSpec& m : spec->mounts) targets.push_back(m.target);
  // /run has no mount point in this root; the host's working directory is not bound.
  EXPECT_EQ(targets, (std::vector<std::string>{"/dev", "/proc", "/tmp"}));
}

TEST(SandboxOptionsTest, TraceRefusesWhatOnlyASandboxHas) {
  SandboxOptions base;
  base.profile = "trace";
  base.rlimits = {{RLIMIT_NOFILE, 64, 64}};
  base.time_limit_s = 1;
  EXPECT_TRUE(BuildSandboxSpec(base, "/work"));  // limits apply unconfined too

  struct Case {
    const char* flag;
    void (*set)(SandboxOptions*);
  };
  for (const Case& c : {
           Case{"--ro-bind",
                [](SandboxOptions* o) {
                  o->mounts = {{Kind::kTmpfs, "", "/x"}};
                }},
           Case{"--root", [](SandboxOptions* o) { o->root = "/"; }},
           Case{"--net", [](SandboxOptions* o) { o->network = SandboxSpec::Network::kHost; }},
           Case{"--uid", [](SandboxOptions* o) { o->uid = 0; }},
           Case{"--gid", [](SandboxOptions* o) { o->gid = 0; }},
           Case{"--hostname", [](SandboxOptions* o) { o->hostname = "box"; }},
           Case{"--memory", [](SandboxOptions* o) { o->memory = 1 << 30; }},
           Case{"--pids", [](SandboxOptions* o) { o->pids = 10; }},
       }) {
    SandboxOptions o = base;
    c.set(&o);
    auto spec = BuildSandboxSpec(o, "/work");
    ASSERT_FALSE(spec) << c.flag;
    EXPECT_TRUE(Contains(spec.error(), c.flag)) << spec.error();
    EXPECT_TRUE(Contains(spec.error(), "--profile=trace")) << spec.error();
  }
}

TEST(SandboxOptionsTest, OverlayReplacesSettingsAndAppendsLists) {
  SandboxOptions file;
  file.hostname = "file";
  file.uid = 7;
  file.mounts = {{Kind::kTmpfs, "", "/a"}};
  SandboxOptions cli;
  cli.hostname = "cli";
  cli.mounts = {{Kind::kTmpfs, "", "/b"}};
  Overlay(cli, &file);
  EXPECT_EQ(file.hostname, "cli");
  EXPECT_EQ(file.uid, 7u);
  ASSERT_EQ(file.mounts.size(), 2u);
  EXPECT_EQ(file.mounts[0].target, "/a");
  EXPECT_EQ(file.mounts[1].target, "/b");
}

TEST(SandboxOptionsTest, UnknownProfile) {
  SandboxOptions o;
  o.profile = "bogus";
  auto spec = BuildSandboxSpec(o, "/work");
  ASSERT_FALSE(spec);
  EXPECT_TRUE(Contains(spec.error(), "unknown profile 'bogus'")) << spec.error();
}

}  // namespace
}  // namespace snare::sandbox
