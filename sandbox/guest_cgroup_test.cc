#include "sandbox/guest_cgroup.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace snare::sandbox {
namespace {

TEST(ParseProcCgroupTest, ReadsV1AndV2Lines) {
  const auto lines = ParseProcCgroup("4:memory:/process_api/0c0a\n8:pids:/\n0::/user.slice\n");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].hierarchy, 4);
  EXPECT_EQ(lines[0].controllers, std::vector<std::string>{"memory"});
  EXPECT_EQ(lines[0].path, "/process_api/0c0a");
  EXPECT_EQ(lines[1].path, "/");
  EXPECT_EQ(lines[2].hierarchy, 0);
  EXPECT_TRUE(lines[2].controllers.empty());
  EXPECT_EQ(lines[2].path, "/user.slice");
}

TEST(ParseCgroupMountsTest, FindsBothVersionsAndTheirControllers) {
  const auto mounts = ParseCgroupMounts(
      "25 24 0:22 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
      "30 24 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate\n"
      "31 24 0:28 / /sys/fs/cgroup/with\\040space rw - cgroup cgroup rw,cpu,cpuacct\n"
      "22 1 0:21 / /proc rw - proc proc rw\n");
  ASSERT_EQ(mounts.size(), 3u);
  EXPECT_EQ(mounts[0].version, 1);
  EXPECT_EQ(mounts[0].controllers, (std::vector<std::string>{"rw", "memory"}));
  EXPECT_EQ(mounts[1].version, 2);
  EXPECT_EQ(mounts[1].mount_point, "/sys/fs/cgroup/unified");
  EXPECT_EQ(mounts[2].mount_point, "/sys/fs/cgroup/with space");
}

TEST(CgroupDirectoryTest, JoinsTheMountPointAndThePathBelowTheMountsRoot) {
  CgroupMount m{2, "/", "/sys/fs/cgroup", {}};
  EXPECT_EQ(CgroupDirectory(m, "/"), "/sys/fs/cgroup");
  EXPECT_EQ(CgroupDirectory(m, "/a/b"), "/sys/fs/cgroup/a/b");
  m.root = "/a";
  EXPECT_EQ(CgroupDirectory(m, "/a/b"), "/sys/fs/cgroup/b");
  EXPECT_EQ(CgroupDirectory(m, "/a"), "/sys/fs/cgroup");
  EXPECT_EQ(CgroupDirectory(m, "/ab"), "");  // not below the mount's root
}

TEST(GuestCgroupTest, NothingAskedMakesNothing) {
  GuestCgroup cg = GuestCgroup::Create({});
  EXPECT_FALSE(cg.bounds_memory());
  EXPECT_FALSE(cg.bounds_pids());
  EXPECT_EQ(cg.Describe(), "");
  EXPECT_EQ(cg.why_no_memory(), "");
  EXPECT_EQ(cg.why_no_pids(), "");
}

TEST(GuestCgroupTest, WithoutACgroupFileSystemSaysWhy) {
  GuestCgroup cg =
      GuestCgroup::Create({64 << 20, 10}, "0::/\n", "22 1 0:21 / /proc rw - proc proc rw\n");
  EXPECT_FALSE(cg.bounds_memory());
  EXPECT_FALSE(cg.bounds_pids());
  EXPECT_NE(cg.why_no_memory(), "");
  EXPECT_NE(cg.why_no_pids(), "");
}

TEST(GuestCgroupTest, WithoutV1OnlyAV2HierarchyServes) {
  // A v1 memory hierarchy and snare's place in it, but v1 is not wanted: nothing is made.
  GuestCgroup cg =
      GuestCgroup::Create({64 << 20, 0, /*v1=*/false}, "4:memory:/\n0::/\n",
                          "25 24 0:22 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
  EXPECT_FALSE(cg.bounds_memory());
  EXPECT_NE(cg.why_no_memory().find("cgroup v1 only"), std::string::npos) << cg.why_no_memory();
  EXPECT_EQ(cg.clone_fd(), -1);
}

std::string ContentOf(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// On this machine's real cgroups: the limits land in the files, a process joins, and the
// directories go with the object.
TEST(GuestCgroupTest, PlacesTheLimitsAndAProcessThenRemovesItsDirectories) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root or a delegated cgroup (CI runs as root)";
  std::string dirs;
  {
    GuestCgroup cg = GuestCgroup::Create({64 << 20, 10});
    if (!cg.bounds_memory() && !cg.bounds_pids()) {
      GTEST_SKIP() << "no cgroup can be made here: " << cg.why_no_memory();
    }
    dirs = cg.Describe();
    ASSERT_NE(dirs.find("snare-" + std::to_string(getpid())), std::string::npos) << dirs;
    const bool v2 = dirs.rfind("cgroup v2 ", 0) == 0;
    std::vector<std::string> paths;
    std::istringstream words(dirs.substr(dirs.find(' ', 7) + 1));
    for (std::string w; words >> w;) {
      if (w != "and") paths.push_back(w);
    }
    for (const std::string& p : paths) {
      if (cg.bounds_memory() && (v2 || p.find("memory") != std::string::npos)) {
        EXPECT_EQ(ContentOf(p + (v2 ? "/memory.max" : "/memory.limit_in_bytes")), "67108864\n");
      }
      if (cg.bounds_pids() && (v2 || p.find("pids") != std::string::npos)) {
        EXPECT_EQ(ContentOf(p + "/pids.max"), "10\n");
      }
    }
    int go[2];
    ASSERT_EQ(pipe(go), 0);
    const pid_t child = fork();
    if (child == 0) {
      close(go[1]);
      char c;
      (void)!read(go[0], &c, 1);
      _exit(0);
    }
    ASSERT_TRUE(cg.Join(child).has_value());
    for (const std::string& p : paths) {
      EXPECT_NE(ContentOf(p + "/cgroup.procs").find(std::to_string(child)), std::string::npos);
    }
    close(go[1]);
    waitpid(child, nullptr, 0);
    close(go[0]);
    for (const std::string& p : paths) {
      struct stat st;
      EXPECT_EQ(stat(p.c_str(), &st), 0) << p;
    }
    dirs = dirs.substr(dirs.find(' ', 7) + 1);
  }
  std::istringstream words(dirs);
  for (std::string w; words >> w;) {
    struct stat st;
    if (w != "and") {
      EXPECT_NE(stat(w.c_str(), &st), 0) << w << " is left behind";
    }
  }
}

TEST(FallBackToRlimitsTest, LowersTheRlimitsOfWhatWasAskedAndSaysSo) {
  GuestCgroup none =
      GuestCgroup::Create({64 << 20, 10}, "0::/\n", "22 1 0:21 / /proc rw - proc proc rw\n");
  SandboxSpec spec;
  spec.rlimits = {{RLIMIT_AS, rlim_t{8} << 30, rlim_t{8} << 30}};
  spec.memory_limit = 64 << 20;
  spec.pids_limit = 10;
  EXPECT_EQ(FallBackToRlimits(none, &spec), "") << "nothing asked: the profile's rlimits stay";
  EXPECT_EQ(spec.rlimits.size(), 1u);
  spec.memory_asked = spec.pids_asked = true;
  const std::string note = FallBackToRlimits(none, &spec);
  EXPECT_NE(note.find("--memory=64M and --pids=10: no cgroup"), std::string::npos) << note;
  EXPECT_NE(note.find("RLIMIT_AS"), std::string::npos) << note;
  EXPECT_NE(note.find("RLIMIT_NPROC"), std::string::npos) << note;
  ASSERT_EQ(spec.rlimits.size(), 2u);
  EXPECT_EQ(spec.rlimits[0].soft, rlim_t{64} << 20);
  EXPECT_EQ(spec.rlimits[1].resource, RLIMIT_NPROC);
  EXPECT_EQ(spec.rlimits[1].hard, 10u);
}

}  // namespace
}  // namespace snare::sandbox
