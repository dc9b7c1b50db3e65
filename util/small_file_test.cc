#include "util/small_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "util/scratch_dir_fixture.h"

namespace snare::util {
namespace {

class ReadSmallFileTest : public ScratchDirFixture {};

TEST_F(ReadSmallFileTest, ReadsWholeFilesUpToTheBound) {
  const std::string path = dir_.string() + "/f";
  std::ofstream(path) << std::string(3000, 'x');
  auto text = ReadSmallFile(path, 4096);
  ASSERT_TRUE(text.has_value()) << text.error();
  EXPECT_EQ(text->size(), 3000u);
  auto big = ReadSmallFile(path, 2048);
  ASSERT_FALSE(big.has_value());
  EXPECT_EQ(big.error(), "larger than 2 KiB");
  auto missing = ReadSmallFile(dir_.string() + "/none", 4096);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error(), "No such file or directory");
}

}  // namespace
}  // namespace snare::util
