// The kernel lab's smoke, as CI runs it: every variant's patches apply, its kernel builds
// (or is reused from the cache) and boots under qemu, and lab-init's checks pass inside.
// Kernel builds are cached in /var/tmp/snare-lab-cache across runs.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

std::string Runfile(const std::string& path) {
  const char* dir = getenv("TEST_SRCDIR");
  return std::string(dir ? dir : ".") + "/snare/" + path;
}

struct Output {
  int status;
  std::string text;
};

Output RunSnare(const std::string& args) {
  std::string command = Runfile("sentry/snare") + " " + args + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  Output out{-1, ""};
  if (!p) return out;
  char buf[4096];
  while (fgets(buf, sizeof(buf), p)) out.text += buf;
  int status = pclose(p);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

int CountEntries(const std::string& dir) {
  int n = 0;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

TEST(LabSmokeTest, APatchThatDoesNotApplyNamesTheStageAndLeavesNoCacheEntry) {
  if (access("/usr/src/linux-source-6.12.tar.xz", R_OK) != 0) {
    GTEST_SKIP() << "linux-source-6.12 is not installed (tools/setup.sh installs it)";
  }
  const std::string tmp = getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp";
  const std::string kernel = tmp + "/kernel";
  ASSERT_EQ(system(("mkdir -p " + kernel + "/patches/6.12/broken " + kernel + "/config").c_str()),
            0);
  std::ofstream(kernel + "/config/lab.config") << "CONFIG_64BIT=y\n";
  std::ofstream(kernel + "/patches/6.12/broken/0001-broken.patch")
      << "--- a/kernel/signal.c\n+++ b/kernel/signal.c\n@@ -1,2 +1,2 @@\n"
         "-no such line in signal.c\n+replacement\n context\n";
  const std::string cache = tmp + "/cache";
  Output out = RunSnare("lab build --variants=broken --kernel-dir=" + kernel + " --cache=" + cache);
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("broken kernel, stage patch"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("does not apply"), std::string::npos) << out.text;
  EXPECT_EQ(CountEntries(cache + "/6.12"), 0) << "a failed build left something in the cache";
}

TEST(LabSmokeTest, AKernelThatDoesNotBootInTimeNamesTheStageAndStoresNothing) {
  if (access("/usr/src/linux-source-6.12.tar.xz", R_OK) != 0) {
    GTEST_SKIP() << "linux-source-6.12 is not installed (tools/setup.sh installs it)";
  }
  const std::string tmp = getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp";
  const std::string db = tmp + "/lab.db";
  Output out = RunSnare("lab run --variants=stock --no-kvm --timeout=2 --db=" + db +
                        " --cache=/var/tmp/snare-lab-cache --kernel-dir=" + Runfile("kernel"));
  EXPECT_EQ(out.status, 1) << out.text;
  EXPECT_NE(out.text.find("stock kernel under qemu (tcg-icount), stage boot"), std::string::npos)
      << out.text;
  Output report = RunSnare("report --list --db=" + db);
  EXPECT_EQ(report.text.find("| stock |"), std::string::npos) << report.text;
}

TEST(LabSmokeTest, KernelsBuildBootAndPassTheChecks) {
  if (access("/usr/src/linux-source-6.12.tar.xz", R_OK) != 0) {
    GTEST_SKIP() << "linux-source-6.12 is not installed (tools/setup.sh installs it)";
  }
  std::string cache = "/var/tmp/snare-lab-cache";
  std::string command = Runfile("sentry/snare") + " lab smoke --cache=" + cache +
                        " --kernel-dir=" + Runfile("kernel") + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string output;
  char buf[4096];
  while (fgets(buf, sizeof(buf), p)) output += buf;
  int status = pclose(p);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("kernels built and booted"), std::string::npos) << output;
  EXPECT_EQ(output.find("FAILED"), std::string::npos) << output;
  printf("%s", output.substr(output.size() > 4000 ? output.size() - 4000 : 0).c_str());
}

}  // namespace
