#include "kernel/lab/initramfs.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace snare::lab {
namespace {

struct CpioEntry {
  uint32_t mode;
  uint32_t rdev_major, rdev_minor;
  std::string data;
};

uint32_t Field(const std::string& a, size_t off) {
  return static_cast<uint32_t>(std::stoul(a.substr(off, 8), nullptr, 16));
}

// A minimal newc reader, independent of the writer.
std::map<std::string, CpioEntry> Parse(const std::string& a) {
  std::map<std::string, CpioEntry> out;
  size_t pos = 0;
  for (;;) {
    EXPECT_EQ(a.substr(pos, 6), "070701") << "at " << pos;
    if (a.substr(pos, 6) != "070701") break;
    uint32_t mode = Field(a, pos + 14), size = Field(a, pos + 54);
    uint32_t major = Field(a, pos + 78), minor = Field(a, pos + 86);
    uint32_t namesize = Field(a, pos + 94);
    std::string name = a.substr(pos + 110, namesize - 1);
    pos = (pos + 110 + namesize + 3) & ~size_t{3};
    if (name == "TRAILER!!!") break;
    out[name] = {mode, major, minor, a.substr(pos, size)};
    pos = (pos + size + 3) & ~size_t{3};
  }
  return out;
}

TEST(InitramfsTest, HoldsInitConsoleAndMountPoints) {
  std::vector<uint8_t> init = {0x7f, 'E', 'L', 'F', 1, 2, 3};
  std::string archive = BuildInitramfs(init);
  EXPECT_EQ(archive.size() % 512, 0u);
  auto entries = Parse(archive);
  ASSERT_TRUE(entries.count("init"));
  EXPECT_EQ(entries["init"].mode, 0100755u);
  EXPECT_EQ(entries["init"].data, std::string(init.begin(), init.end()));
  ASSERT_TRUE(entries.count("dev/console"));
  EXPECT_EQ(entries["dev/console"].mode & 0170000, 0020000u);
  EXPECT_EQ(entries["dev/console"].rdev_major, 5u);
  EXPECT_EQ(entries["dev/console"].rdev_minor, 1u);
  for (const char* dir : {"dev", "proc", "tmp"}) {
    ASSERT_TRUE(entries.count(dir)) << dir;
    EXPECT_EQ(entries[dir].mode & 0170000, 0040000u) << dir;
  }
}

TEST(InitramfsTest, ExtraFilesComeWithTheirFolders) {
  std::vector<uint8_t> init = {0x7f, 'E', 'L', 'F'};
  std::string archive = BuildInitramfs(init, {{"selftests/x86/sigreturn_64", 0100755, "abc"},
                                              {"selftests/x86/syscall_nt_64", 0100755, "de"},
                                              {"selftests/timeouts", 0100644, "x86 45\n"}});
  auto entries = Parse(archive);
  for (const char* dir : {"selftests", "selftests/x86"}) {
    ASSERT_TRUE(entries.count(dir)) << dir;
    EXPECT_EQ(entries[dir].mode, 0040755u) << dir;
  }
  EXPECT_EQ(entries["selftests/x86/sigreturn_64"].data, "abc");
  EXPECT_EQ(entries["selftests/x86/syscall_nt_64"].data, "de");
  EXPECT_EQ(entries["selftests/timeouts"].mode, 0100644u);
  EXPECT_EQ(entries["selftests/timeouts"].data, "x86 45\n");
  EXPECT_EQ(entries["init"].data, std::string(init.begin(), init.end()));
}

TEST(InitramfsTest, EmbeddedLabInitIsAStaticX8664Executable) {
  auto bytes = LabInitBytes();
  ASSERT_GT(bytes.size(), 64u);
  EXPECT_EQ(std::memcmp(bytes.data(),
                        "\x7f"
                        "ELF",
                        4),
            0);
  EXPECT_EQ(bytes[4], 2);    // 64-bit
  EXPECT_EQ(bytes[18], 62);  // EM_X86_64
}

}  // namespace
}  // namespace snare::lab
