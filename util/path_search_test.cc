#include "util/path_search.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace snare::util {
namespace {

TEST(PathSearchTest, Candidates) {
  EXPECT_EQ(PathCandidates("ls", "/a:/b"), (std::vector<std::string>{"/a/ls", "/b/ls"}));
  EXPECT_EQ(PathCandidates("ls", ":/b:"), (std::vector<std::string>{"./ls", "/b/ls", "./ls"}));
  EXPECT_EQ(PathCandidates("ls", ""), (std::vector<std::string>{"./ls"}));
}

TEST(PathSearchTest, FindsTheFirstExecutableRegularFile) {
  std::string dir = getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp";
  std::string a = dir + "/path_a", b = dir + "/path_b";
  mkdir(a.c_str(), 0755);
  mkdir(b.c_str(), 0755);
  mkdir((a + "/tool").c_str(), 0755);  // a directory of that name does not count
  int fd = open((b + "/tool").c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  close(fd);
  EXPECT_FALSE(FindExecutable("tool", a + ":" + b));  // not executable
  chmod((b + "/tool").c_str(), 0755);
  EXPECT_EQ(FindExecutable("tool", a + ":" + b), b + "/tool");
  EXPECT_FALSE(FindExecutable("no-such-tool-xyz", a + ":" + b));
  EXPECT_EQ(FindExecutable("sh", kDefaultPath).value_or("").substr(0, 1), "/");
}

}  // namespace
}  // namespace snare::util
