#include "util/atomic_file.h"

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

using AtomicFileTest = util::ScratchDirFixture;

TEST_F(AtomicFileTest, WritesAndReadsBack) {
  std::string path = (dir_ / "stats.json").string();
  auto r = WriteFileAtomically(path, "{\"calls\": 1}\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(Read(path), "{\"calls\": 1}\n");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"stats.json"}));  // no temporary left
}

TEST_F(AtomicFileTest, BinaryAndEmptyContents) {
  std::string path = (dir_ / "bin").string();
  const std::string bytes("a\0b\xff", 4);
  ASSERT_TRUE(WriteFileAtomically(path, bytes));
  EXPECT_EQ(Read(path), bytes);
  ASSERT_TRUE(WriteFileAtomically(path, ""));
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(fs::file_size(path), 0u);
}

TEST_F(AtomicFileTest, LargeContents) {
  std::string path = (dir_ / "large").string();
  std::string big(3 << 20, 'x');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + i % 26);
  ASSERT_TRUE(WriteFileAtomically(path, big));
  EXPECT_EQ(Read(path), big);
}

TEST_F(AtomicFileTest, OverwriteReplacesContent) {
  std::string path = (dir_ / "out.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "a much longer first version\n"));
  ASSERT_TRUE(WriteFileAtomically(path, "short\n"));
  EXPECT_EQ(Read(path), "short\n");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"out.txt"}));
}

TEST_F(AtomicFileTest, OverwriteReplacesTheFileNotItsContents) {
  // A reader holding the old file keeps seeing the old contents (rename, not truncate).
  std::string path = (dir_ / "out.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old\n"));
  std::ifstream old_reader(path);
  ASSERT_TRUE(WriteFileAtomically(path, "new\n"));
  std::string line;
  std::getline(old_reader, line);
  EXPECT_EQ(line, "old");
  EXPECT_EQ(Read(path), "new\n");
}

TEST_F(AtomicFileTest, MissingDirectoryFails) {
  std::string path = (dir_ / "no-such-dir" / "out.txt").string();
  auto r = WriteFileAtomically(path, "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find(path), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("No such file or directory"), std::string::npos) << r.error();
  EXPECT_FALSE(fs::exists(dir_ / "no-such-dir"));
  EXPECT_TRUE(Entries().empty());
}

TEST_F(AtomicFileTest, TargetIsADirectoryFailsAndCleansUp) {
  // Everything up to the rename succeeds; the failed rename must not leave the temporary.
  fs::create_directories(dir_ / "taken" / "child");
  std::string path = (dir_ / "taken").string();
  auto r = WriteFileAtomically(path, "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find(path), std::string::npos) << r.error();
  EXPECT_EQ(Entries(), (std::vector<std::string>{"taken"}));
}

// Whoever else writes the directory (a hostile guest) plants symlinks at every temporary
// name it can predict, and at the target: none is followed, the target's symlink is replaced.
TEST_F(AtomicFileTest, PlantedSymlinksAreNotFollowed) {
  const fs::path victim = dir_ / "victim";
  const fs::path target_victim = dir_ / "target-victim";
  std::ofstream(victim) << "victim\n";
  std::ofstream(target_victim) << "target victim\n";
  const std::string path = (dir_ / "stats.json").string();
  // The names earlier versions used (PATH.tmp.PID), and the names this test forces.
  std::vector<std::string> planted = {"stats.json.tmp." + std::to_string(getpid()),
                                      "stats.json.tmp", "forced-0", "forced-1", "forced-2"};
  for (const std::string& name : planted) fs::create_symlink(victim, dir_ / name);
  fs::create_symlink(target_victim, path);

  PendingFileOptions options;
  options.temp_name = [](int attempt) {
    return attempt < 3 ? "forced-" + std::to_string(attempt) : "fresh-" + std::to_string(attempt);
  };
  auto r = WriteFileAtomically(path, "new\n", options);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(Read(victim), "victim\n");
  EXPECT_EQ(Read(target_victim), "target victim\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path))) << "the target is still a symlink";
  EXPECT_EQ(Read(path), "new\n");
  for (const std::string& name : planted) {
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / name))) << name;
  }

  // With random names (the default) too.
  ASSERT_TRUE(fs::remove(path));
  fs::create_symlink(target_victim, path);
  r = WriteFileAtomically(path, "again\n");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(Read(victim), "victim\n");
  EXPECT_EQ(Read(target_victim), "target victim\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path)));
  EXPECT_EQ(Read(path), "again\n");
}

// An existing file at every name tried: no temporary is ever reused, the write fails.
TEST_F(AtomicFileTest, ExistingTemporaryIsNeverReused) {
  std::ofstream(dir_ / "taken") << "someone else's\n";
  PendingFileOptions options;
  options.temp_name = [](int) { return std::string("taken"); };
  auto r = WriteFileAtomically((dir_ / "out").string(), "x", options);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("File exists"), std::string::npos) << r.error();
  EXPECT_EQ(Read(dir_ / "taken"), "someone else's\n");
  EXPECT_EQ(Entries(), (std::vector<std::string>{"taken"}));
}

TEST_F(AtomicFileTest, ModeHonorsTheUmask) {
  const mode_t old = umask(027);
  auto r = WriteFileAtomically((dir_ / "out").string(), "x");
  umask(old);
  ASSERT_TRUE(r) << r.error();
  struct stat st;
  ASSERT_EQ(stat((dir_ / "out").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

}  // namespace
}  // namespace snare::util
