#include "util/atomic_file.h"

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
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

TEST_F(AtomicFileTest, CheckWritableDirectory) {
  EXPECT_TRUE(CheckWritableDirectory((dir_ / "out.txt").string()));
  // A bare name lives in the working directory.
  EXPECT_EQ(CheckWritableDirectory("out.txt").has_value(), access(".", W_OK | X_OK) == 0);

  std::string missing = (dir_ / "no-such-dir" / "out.txt").string();
  auto r = CheckWritableDirectory(missing);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find(missing), std::string::npos) << r.error();
  EXPECT_NE(r.error().find((dir_ / "no-such-dir").string()), std::string::npos) << r.error();

  // A regular file is no directory.
  std::ofstream(dir_ / "file") << "x";
  r = CheckWritableDirectory((dir_ / "file" / "out.txt").string());
  EXPECT_FALSE(r);
}

// Runs `check` as uid/gid 65534 (nobody) in a child when the test runs as root (as CI does),
// directly otherwise; returns what it returned.
bool AsUnprivileged(const std::function<bool()>& check) {
  if (geteuid() != 0) return check();
  pid_t pid = fork();
  if (pid == 0) {
    if (setgroups(0, nullptr) != 0 || setresgid(65534, 65534, 65534) != 0 ||
        setresuid(65534, 65534, 65534) != 0) {
      _exit(2);
    }
    _exit(check() ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 2) << "could not drop to uid 65534";
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// As an unprivileged user: a directory it may not write is refused, one it owns is not.
// Under /tmp, which every user can traverse (the test's own tmpdir may not be).
TEST_F(AtomicFileTest, CheckWritableDirectoryRefusesReadOnly) {
  char templ[] = "/tmp/atomic_file_test.XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr);
  const fs::path top = templ;
  ASSERT_EQ(chmod(top.c_str(), 0755), 0);
  fs::create_directories(top / "ro");
  fs::create_directories(top / "rw");
  ASSERT_EQ(chmod((top / "ro").c_str(), 0555), 0);
  if (geteuid() == 0) ASSERT_EQ(chown((top / "rw").c_str(), 65534, 65534), 0);
  EXPECT_FALSE(AsUnprivileged([&] {
    return CheckWritableDirectory((top / "ro" / "out.txt").string()).has_value();
  })) << "a read-only directory was accepted";
  EXPECT_TRUE(AsUnprivileged([&] {
    return CheckWritableDirectory((top / "rw" / "out.txt").string()).has_value();
  })) << "the user's own directory was refused";
  chmod((top / "ro").c_str(), 0755);
  fs::remove_all(top);
}

}  // namespace
}  // namespace snare::util
