#include "sandbox/hidden_files.h"

#include <gtest/gtest.h>

#include "sandbox/profiles.h"

namespace snare::sandbox {
namespace {

using Kind = MountSpec::Kind;

std::vector<std::string> RoBinds(const SandboxSpec& spec) {
  std::vector<std::string> out;
  for (const MountSpec& m : spec.mounts) {
    if (m.kind == Kind::kRoBind) out.push_back(m.source + "->" + m.target);
  }
  return out;
}

TEST(HiddenFilesTest, BindsOnlyWhatATmpfsHides) {
  auto spec = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(spec);
  ExposeHiddenFiles({"/tmp/build/a.out", "/usr/bin/python3", "/run/x/tool", "/work/b.out",
                     "/tmpx/c", "relative/d"},
                    &*spec);
  EXPECT_EQ(RoBinds(*spec), (std::vector<std::string>{"/tmp/build/a.out->/tmp/build/a.out",
                                                      "/run/x/tool->/run/x/tool"}));
}

TEST(HiddenFilesTest, TheLatestDeepestMountDecides) {
  auto spec = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(spec);
  spec->mounts.push_back({Kind::kBind, "/tmp/keep", "/tmp/keep"});
  spec->mounts.push_back({Kind::kTmpfs, "", "/work/scratch"});
  ExposeHiddenFiles({"/tmp/keep/a", "/work/scratch/b"}, &*spec);
  EXPECT_EQ(RoBinds(*spec), (std::vector<std::string>{"/work/scratch/b->/work/scratch/b"}));
  const MountSpec* holder = MountHolding(*spec, "/tmp/keep/a");
  ASSERT_NE(holder, nullptr);
  EXPECT_EQ(holder->kind, Kind::kBind);
  EXPECT_EQ(MountHolding(*spec, "/usr/bin/env"), nullptr);
}

TEST(HiddenFilesTest, UnconfinedOrAnotherRootIsLeftAlone) {
  auto trace = ProfileSpec("trace", "/work");
  ASSERT_TRUE(trace);
  ExposeHiddenFiles({"/tmp/a"}, &*trace);
  EXPECT_TRUE(trace->mounts.empty());
  auto other = ProfileSpec("sandbox", "/work");
  ASSERT_TRUE(other);
  other->root = "/srv/rootfs";
  ExposeHiddenFiles({"/tmp/a"}, &*other);
  EXPECT_TRUE(RoBinds(*other).empty());
}

}  // namespace
}  // namespace snare::sandbox
