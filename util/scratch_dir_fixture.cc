#include "util/scratch_dir_fixture.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace snare::util {

namespace fs = std::filesystem;

void ScratchDirFixture::SetUp() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = fs::path(tmp ? tmp : "/tmp") / (std::string(test->test_suite_name()) + "." +
                                         std::to_string(getpid()) + "." + test->name());
  fs::remove_all(dir_);
  fs::create_directories(dir_);
}

void ScratchDirFixture::TearDown() { fs::remove_all(dir_); }

std::string ScratchDirFixture::Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> ScratchDirFixture::Entries() const {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace snare::util
