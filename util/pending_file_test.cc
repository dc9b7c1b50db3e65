#include "util/pending_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "util/scratch_dir_fixture.h"

namespace snare::util {
namespace {

namespace fs = std::filesystem;

using PendingFileTest = util::ScratchDirFixture;

// While it is written, a hidden file has no name: nobody can open, truncate or replace it
// by path. (Where the filesystem lacks O_TMPFILE it falls back to a random name.)
TEST_F(PendingFileTest, HiddenFileHasNoNameUntilPublished) {
  const std::string path = (dir_ / "trace.txt").string();
  PendingFileOptions options;
  options.hidden = true;
  auto file = PendingFile::Create(path, options);
  ASSERT_TRUE(file) << file.error();
  ASSERT_TRUE(file->WriteAll("line 1\n", 7));
  if (!file->WhereNow().empty()) GTEST_SKIP() << "no O_TMPFILE here: " << file->WhereNow();
  EXPECT_TRUE(Entries().empty());
  // What a guest in the directory would try.
  EXPECT_LT(open(path.c_str(), O_WRONLY | O_TRUNC), 0);
  ASSERT_TRUE(file->WriteAll("line 2\n", 7));
  auto published = file->Publish(/*sync=*/false);
  ASSERT_TRUE(published) << published.error();
  EXPECT_EQ(file->WhereNow(), path);
  EXPECT_EQ(Read(path), "line 1\nline 2\n");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"trace.txt"}));
}

TEST_F(PendingFileTest, HiddenFileReplacesAPlantedSymlink) {
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "victim\n";
  const std::string path = (dir_ / "trace.txt").string();
  PendingFileOptions options;
  options.hidden = true;
  // Even the name used to link it first is taken by a symlink.
  options.temp_name = [](int attempt) { return attempt == 0 ? "planted" : "free"; };
  fs::create_symlink(victim, dir_ / "planted");
  auto file = PendingFile::Create(path, options);
  ASSERT_TRUE(file) << file.error();
  ASSERT_TRUE(file->WriteAll("mine\n", 5));
  fs::create_symlink(victim, path);  // planted while the file was written
  ASSERT_TRUE(file->Publish(/*sync=*/true));
  EXPECT_EQ(Read(victim), "victim\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path)));
  EXPECT_EQ(Read(path), "mine\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "planted")));
}

// The directory is resolved once: moving it away and planting a symlink in its place does
// not redirect the file.
TEST_F(PendingFileTest, DirectoryIsResolvedOnce) {
  fs::create_directories(dir_ / "out");
  fs::create_directories(dir_ / "elsewhere");
  auto file = PendingFile::Create((dir_ / "out" / "f").string());
  ASSERT_TRUE(file) << file.error();
  fs::rename(dir_ / "out", dir_ / "moved");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "out");
  ASSERT_TRUE(file->WriteAll("x", 1));
  ASSERT_TRUE(file->Publish(/*sync=*/false));
  EXPECT_EQ(Read(dir_ / "moved" / "f"), "x");
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere" / "f"));
}

TEST_F(PendingFileTest, UnpublishedTemporaryIsRemovedUnlessReleased) {
  const std::string path = (dir_ / "f").string();
  {
    auto file = PendingFile::Create(path);
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(Entries().size(), 1u);
  }
  EXPECT_TRUE(Entries().empty());
  int fd;
  std::string where;
  {
    auto file = PendingFile::Create(path);
    ASSERT_TRUE(file) << file.error();
    fd = file->fd();
    where = file->WhereNow();
    file->Release();
  }
  EXPECT_EQ(write(fd, "kept", 4), 4) << "Release closed the fd";
  close(fd);
  EXPECT_EQ(Read(where), "kept");
}

TEST_F(PendingFileTest, DirectoryNamesAreRefused) {
  for (const std::string& path : {(dir_ / "").string(), (dir_ / ".").string(), std::string("..")}) {
    auto file = PendingFile::Create(path);
    ASSERT_FALSE(file) << path;
    EXPECT_NE(file.error().find("Is a directory"), std::string::npos) << file.error();
  }
}

}  // namespace
}  // namespace snare::util
