// For unit tests that make files: a fresh directory per test under $TEST_TMPDIR, removed
// afterwards, and readers for what the code under test left there.
#ifndef SNARE_UTIL_SCRATCH_DIR_FIXTURE_H_
#define SNARE_UTIL_SCRATCH_DIR_FIXTURE_H_

#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::util {

class ScratchDirFixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // The whole file (empty when it cannot be read).
  static std::string Read(const std::filesystem::path& p);
  // Names in dir_, sorted.
  std::vector<std::string> Entries() const;

  std::filesystem::path dir_;
};

}  // namespace snare::util

#endif  // SNARE_UTIL_SCRATCH_DIR_FIXTURE_H_
