#include "sandbox/hidden_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "sandbox/profiles.h"

namespace snare::sandbox {
namespace {

using Kind = MountSpec::Kind;

// The read-only binds from the `from`th mount on: those ExposeHiddenFiles added (the
// profile's host view binds this machine's $PATH directories before them).
std::vector<std::string> RoBinds(const SandboxSpec& spec, size_t from) {
  std::vector<std::string> out;
  for (size_t i = from; i < spec.mounts.size(); ++i) {
    const MountSpec& m = spec.mounts[i];
    if (m.kind == Kind::kRoBind) out.push_back(m.source + "->" + m.target);
  }
  return out;
}

TEST(HiddenFilesTest, BindsOnlyWhatATmpfsHides) {
  auto spec = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(spec);
  const size_t profile = spec->mounts.size();
  ExposeHiddenFiles({"/tmp/build/a.out", "/usr/bin/python3", "/run/x/tool", "/work/b.out",
                     "/tmpx/c", "relative/d"},
                    &*spec);
  EXPECT_EQ(RoBinds(*spec, profile), (std::vector<std::string>{"/tmp/build/a.out->/tmp/build/a.out",
                                                               "/run/x/tool->/run/x/tool"}));
}

TEST(HiddenFilesTest, TheLatestDeepestMountDecides) {
  auto spec = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(spec);
  spec->mounts.push_back({Kind::kBind, "/tmp/keep", "/tmp/keep"});
  spec->mounts.push_back({Kind::kTmpfs, "", "/work/scratch"});
  const size_t before = spec->mounts.size();
  ExposeHiddenFiles({"/tmp/keep/a", "/work/scratch/b"}, &*spec);
  EXPECT_EQ(RoBinds(*spec, before), (std::vector<std::string>{"/work/scratch/b->/work/scratch/b"}));
  const MountSpec* holder = MountHolding(*spec, "/tmp/keep/a");
  ASSERT_NE(holder, nullptr);
  EXPECT_EQ(holder->kind, Kind::kBind);
  EXPECT_EQ(MountHolding(*spec, "/usr/bin/env"), nullptr);
}

// Paths named as arguments are shown when they exist and hold no link; others stay hidden.
TEST(HiddenFilesTest, NamedPathsAreShownReadOnly) {
  const char* tmp = getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  char real[PATH_MAX];
  ASSERT_NE(realpath(tmp, real), nullptr);
  const std::string dir = std::string(real) + "/named";
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(symlink("/etc", (dir + "/link").c_str()), 0);
  SandboxSpec spec;
  spec.mounts.push_back({Kind::kEmptyDir, "", real});
  ExposeNamedPaths({"-c", dir, dir + "/link", dir + "/missing", "relative", "/usr/bin"}, &spec);
  EXPECT_EQ(RoBinds(spec, 1), (std::vector<std::string>{dir + "->" + dir}));
}

TEST(HiddenFilesTest, UnconfinedOrAnotherRootIsLeftAlone) {
  auto trace = ProfileSpec("trace", "/work");
  ASSERT_TRUE(trace);
  ExposeHiddenFiles({"/tmp/a"}, &*trace);
  EXPECT_TRUE(trace->mounts.empty());
  auto other = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(other);
  other->root = "/srv/rootfs";
  const size_t before = other->mounts.size();
  ExposeHiddenFiles({"/tmp/a"}, &*other);
  EXPECT_TRUE(RoBinds(*other, before).empty());
}

}  // namespace
}  // namespace snare::sandbox
