#include "bench/program_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "util/scratch_dir_fixture.h"
#include "util/subprocess.h"

namespace snare::bench {
namespace {

namespace fs = std::filesystem;

class ProgramFixturesTest : public util::ScratchDirFixture {
 protected:
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
};

size_t CountFiles(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().string().find("/.git/") == std::string::npos) ++n;
  }
  return n;
}

TEST_F(ProgramFixturesTest, FileTreeHasEveryFile) {
  const std::string dir = Path("tree");
  ASSERT_TRUE(MakeFileTree(dir, 250));
  EXPECT_EQ(CountFiles(dir), 250u);
  EXPECT_EQ(fs::file_size(dir + "/d002/f00249.txt"), 1000u);
}

TEST_F(ProgramFixturesTest, GitRepositoryIsCleanAndCommitted) {
  const std::string dir = Path("repo");
  auto made = MakeGitRepository(dir, 120);
  ASSERT_TRUE(made) << made.error();
  util::SubprocessResult status = util::RunSubprocess({"git", "-C", dir, "status", "--porcelain"});
  EXPECT_EQ(status.status, 0) << status.Describe();
  EXPECT_EQ(status.stdout_data, "");  // everything is committed
  util::SubprocessResult files = util::RunSubprocess({"git", "-C", dir, "ls-files"});
  EXPECT_EQ(std::count(files.stdout_data.begin(), files.stdout_data.end(), '\n'), 120);
}

TEST_F(ProgramFixturesTest, SqlScriptInsertsEveryRowAndTheCFileCompiles) {
  const std::string sql = Path("rows.sql");
  ASSERT_TRUE(WriteSqlInserts(sql, 300));
  const std::string text = Read(sql);
  size_t inserts = 0;
  for (size_t at = 0; (at = text.find("INSERT INTO", at)) != std::string::npos; ++at) ++inserts;
  EXPECT_EQ(inserts, 300u);
  EXPECT_EQ(text.find("BEGIN"), std::string::npos);  // one transaction per row

  const std::string c = Path("prog.c");
  ASSERT_TRUE(WriteCSource(c, 200));
  const std::string source = Read(c);
  const auto lines = std::count(source.begin(), source.end(), '\n');
  EXPECT_GE(lines, 190);
  EXPECT_LE(lines, 200);
  util::SubprocessResult cc =
      util::RunSubprocess({"gcc", "-O2", "-Wall", "-Werror", "-o", Path("prog"), c});
  EXPECT_EQ(cc.status, 0) << cc.Describe();
}

}  // namespace
}  // namespace snare::bench
