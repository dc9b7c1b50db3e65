#include "sandbox/host_view.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::sandbox {
namespace {

using Kind = MountSpec::Kind;

std::vector<std::string> Targets(const std::vector<MountSpec>& mounts, Kind kind) {
  std::vector<std::string> out;
  for (const MountSpec& m : mounts) {
    if (m.kind == kind) out.push_back(m.target);
  }
  return out;
}

TEST(HostViewTest, HidesEveryDirectoryOfTheRootButTheSystems) {
  HostView view;
  view.top_level = {"bin",  "boot", "dev", "etc", "home", "lib", "media", "mnt", "opt",
                    "proc", "root", "run", "srv", "sys",  "tmp", "usr",   "var", "work"};
  const auto mounts = HostViewMounts(view);
  EXPECT_EQ(Targets(mounts, Kind::kEmptyDir),
            (std::vector<std::string>{"/boot", "/home", "/media", "/mnt", "/opt", "/root", "/srv",
                                      "/var", "/work"}));
  EXPECT_EQ(Targets(mounts, Kind::kTmpfs), (std::vector<std::string>{"/var/tmp"}));
  EXPECT_EQ(Targets(mounts, Kind::kSymlink), (std::vector<std::string>{"/var/run", "/var/lock"}));
}

TEST(HostViewTest, InstallRootsOfPathDirectories) {
  const std::string home = "/home/u";
  EXPECT_EQ(InstallRoots("/root/.pyenv/shims", "/root"),
            (std::vector<std::string>{"/root/.pyenv"}));
  EXPECT_EQ(InstallRoots("/home/u/.cargo/bin", home), (std::vector<std::string>{"/home/u/.cargo"}));
  EXPECT_EQ(InstallRoots("/opt/tool/bin", home), (std::vector<std::string>{"/opt/tool"}));
  EXPECT_EQ(InstallRoots("/home/u/bin", home), (std::vector<std::string>{"/home/u/bin"}));
  EXPECT_EQ(InstallRoots("/home/u/.local/bin", home),
            (std::vector<std::string>{"/home/u/.local/bin", "/home/u/.local/lib"}));
  EXPECT_EQ(InstallRoots("/opt/tool/libexec", home),
            (std::vector<std::string>{"/opt/tool/libexec"}));
  // Visible anyway.
  EXPECT_TRUE(InstallRoots("/usr/local/bin", home).empty());
  EXPECT_TRUE(InstallRoots("/bin", home).empty());
}

// The private home hides the user's files; PATH's install roots under it come after it, so
// they are not covered.
TEST(HostViewTest, APrivateHomeThenTheExposedRoots) {
  HostView view;
  view.top_level = {"usr", "home"};
  view.home = "/home/nobody-such-user";
  view.path_env = "/usr/bin:/home/nobody-such-user/.pyenv/shims:relative/bin:/no/such/dir";
  const auto mounts = HostViewMounts(view);
  ASSERT_GE(mounts.size(), 2u);
  EXPECT_EQ(mounts[0].kind, Kind::kEmptyDir);
  EXPECT_EQ(mounts[0].target, "/home");
  EXPECT_EQ(mounts[1].kind, Kind::kTmpfs);
  EXPECT_EQ(mounts[1].target, "/home/nobody-such-user");
  // Neither directory exists here: nothing is bound for them.
  EXPECT_TRUE(Targets(mounts, Kind::kRoBind).empty());
}

}  // namespace
}  // namespace snare::sandbox
