// The kernel lab's smoke, as CI runs it: every variant's patches apply, its kernel builds
// (or is reused from the cache) and boots under qemu, and lab-init's checks pass inside.
// Kernel builds are cached in /var/tmp/snare-lab-cache across runs.
#include <dirent.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

constexpr const char* kSourceTarball = "/usr/src/linux-source-6.12.tar.xz";
constexpr const char* kCache = "/var/tmp/snare-lab-cache";

// snare ARGS with stdout and stderr in one stream, as a person at a terminal would see it.
util::SubprocessResult RunSnare(const std::vector<std::string>& args) {
  auto snare = SnareBinary();
  EXPECT_TRUE(snare.has_value()) << snare.error();
  std::vector<std::string> argv = {snare.value_or("snare")};
  argv.insert(argv.end(), args.begin(), args.end());
  util::SubprocessOptions options;
  options.merge_stderr = true;
  options.timeout = std::chrono::seconds(3000);
  return util::RunSubprocess(argv, options);
}

std::string KernelDir() {
  auto dir = RunfilePath("kernel/config/lab.config");
  EXPECT_TRUE(dir.has_value()) << dir.error();
  std::string path = dir.value_or("kernel/config/lab.config");
  return path.substr(0, path.rfind("/config/"));
}

int CountEntries(const std::string& dir) {
  int n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

// The run ids of a `snare report --list` table: the first cell of each row.
std::vector<std::string> StoredRuns(const std::string& table) {
  std::vector<std::string> ids;
  size_t start = 0;
  while (start < table.size()) {
    size_t end = table.find('\n', start);
    if (end == std::string::npos) end = table.size();
    const std::string line = table.substr(start, end - start);
    if (line.size() > 2 && line.rfind("| ", 0) == 0 &&
        isdigit(static_cast<unsigned char>(line[2]))) {
      ids.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    start = end + 1;
  }
  return ids;
}

class LabSmokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kSourceTarball, R_OK) != 0) {
      GTEST_SKIP() << "linux-source-6.12 is not installed (tools/setup.sh installs it)";
    }
  }
};

TEST_F(LabSmokeTest, APatchThatDoesNotApplyNamesTheStageAndLeavesNoCacheEntry) {
  const std::string tmp = MakeTempDir("lab-broken");
  const std::string kernel = tmp + "/kernel";
  std::string patches = kernel + "/patches/6.12/broken";
  ASSERT_EQ(util::RunSubprocess({"mkdir", "-p", patches, kernel + "/config"}).status, 0);
  std::ofstream(kernel + "/config/lab.config") << "CONFIG_64BIT=y\n";
  std::ofstream(patches + "/0001-broken.patch")
      << "--- a/kernel/signal.c\n+++ b/kernel/signal.c\n@@ -1,2 +1,2 @@\n"
         "-no such line in signal.c\n+replacement\n context\n";
  const std::string cache = tmp + "/cache";
  util::SubprocessResult out =
      RunSnare({"lab", "build", "--variants=broken", "--kernel-dir=" + kernel, "--cache=" + cache});
  EXPECT_EQ(out.status, 1) << out.Describe();
  EXPECT_NE(out.stdout_data.find("broken kernel, stage patch"), std::string::npos)
      << out.Describe();
  EXPECT_NE(out.stdout_data.find("does not apply"), std::string::npos) << out.Describe();
  EXPECT_EQ(CountEntries(cache + "/6.12"), 0) << "a failed build left something in the cache";
}

// A boot that times out stores nothing: the database holds the one run it had before, and
// `snare report --list` (which must succeed) shows no lab run.
TEST_F(LabSmokeTest, AKernelThatDoesNotBootInTimeNamesTheStageAndStoresNothing) {
  const std::string db = MakeTempDir("lab-timeout") + "/lab.db";
  util::SubprocessResult before = RunSnare({"bench", "--quick", "--suites=ladder", "--rungs=native",
                                            "--syscalls=getppid", "--db=" + db});
  ASSERT_EQ(before.status, 0) << before.Describe();
  util::SubprocessResult out =
      RunSnare({"lab", "run", "--variants=stock", "--no-kvm", "--timeout=2", "--db=" + db,
                std::string("--cache=") + kCache, "--kernel-dir=" + KernelDir()});
  EXPECT_EQ(out.status, 1) << out.Describe();
  EXPECT_NE(out.stdout_data.find("stock kernel under qemu (tcg-icount), stage boot"),
            std::string::npos)
      << out.Describe();
  util::SubprocessResult report = RunSnare({"report", "--list", "--db=" + db});
  ASSERT_EQ(report.status, 0) << report.Describe();
  EXPECT_EQ(report.stdout_data.find("| stock |"), std::string::npos) << report.stdout_data;
  EXPECT_EQ(StoredRuns(report.stdout_data), (std::vector<std::string>{"1"})) << report.stdout_data;
}

TEST_F(LabSmokeTest, KernelsBuildBootAndPassTheChecks) {
  util::SubprocessResult out =
      RunSnare({"lab", "smoke", std::string("--cache=") + kCache, "--kernel-dir=" + KernelDir()});
  EXPECT_EQ(out.status, 0) << out.Describe();
  EXPECT_NE(out.stdout_data.find("kernels built and booted"), std::string::npos) << out.Describe();
  EXPECT_EQ(out.stdout_data.find("FAILED"), std::string::npos) << out.Describe();
  const std::string& text = out.stdout_data;
  printf("%s", text.substr(text.size() > 4000 ? text.size() - 4000 : 0).c_str());
}

}  // namespace
}  // namespace snare::tests
