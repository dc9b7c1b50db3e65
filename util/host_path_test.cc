#include "util/host_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "util/scratch_dir_fixture.h"

namespace snare::util {
namespace {

namespace fs = std::filesystem;

using HostPathTest = util::ScratchDirFixture;

TEST_F(HostPathTest, OpensAPathWithoutLinks) {
  fs::create_directories(dir_ / "a" / "b");
  auto fd = OpenWithoutSymlinks(AT_FDCWD, (dir_ / "a" / "b").string(), O_PATH | O_DIRECTORY);
  ASSERT_TRUE(fd.has_value()) << fd.error();
  close(*fd);
}

// The attack: a directory the user names is swapped for a link to one the guest must not
// write. The open fails and names the link and its target; nothing is opened there.
TEST_F(HostPathTest, RefusesALinkAnywhereInThePathAndNamesIt) {
  fs::create_directories(dir_ / "victim");
  fs::create_directories(dir_ / "work");
  fs::create_directory_symlink(dir_ / "victim", dir_ / "work" / "out");
  for (const fs::path& p : {dir_ / "work" / "out", dir_ / "work" / "out" / "stats.json"}) {
    auto fd = OpenWithoutSymlinks(AT_FDCWD, p.string(), O_WRONLY | O_CREAT, 0644);
    ASSERT_FALSE(fd.has_value()) << p;
    EXPECT_NE(fd.error().find((dir_ / "work" / "out").string() + " is a symbolic link (to " +
                              (dir_ / "victim").string() + ")"),
              std::string::npos)
        << fd.error();
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "victim"));
}

TEST_F(HostPathTest, InRootKeepsAbsolutePathsBelowTheDirectory) {
  fs::create_directories(dir_ / "root" / "etc");
  std::ofstream(dir_ / "root" / "etc" / "hostname") << "inside\n";
  int root = open((dir_ / "root").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(root, 0);
  auto fd = OpenWithoutSymlinks(root, "/etc/hostname", O_RDONLY, 0, /*in_root=*/true);
  ASSERT_TRUE(fd.has_value()) << fd.error();
  char buf[16] = {};
  EXPECT_EQ(read(*fd, buf, sizeof(buf) - 1), 7);
  EXPECT_STREQ(buf, "inside\n");
  close(*fd);
  auto up = OpenWithoutSymlinks(root, "../../../etc/passwd", O_RDONLY, 0, /*in_root=*/true);
  EXPECT_FALSE(up.has_value());
  close(root);
}

TEST_F(HostPathTest, ExistsWithoutSymlinks) {
  fs::create_directories(dir_ / "real");
  fs::create_directory_symlink(dir_ / "real", dir_ / "link");
  EXPECT_TRUE(ExistsWithoutSymlinks((dir_ / "real").string(), O_DIRECTORY));
  EXPECT_FALSE(ExistsWithoutSymlinks((dir_ / "link").string()));
  EXPECT_FALSE(ExistsWithoutSymlinks((dir_ / "missing").string()));
}

TEST_F(HostPathTest, AMissingPathSaysSo) {
  auto fd = OpenWithoutSymlinks(AT_FDCWD, (dir_ / "nothing").string(), O_RDONLY);
  ASSERT_FALSE(fd.has_value());
  EXPECT_NE(fd.error().find("No such file or directory"), std::string::npos) << fd.error();
}

}  // namespace
}  // namespace snare::util
