// The kernel lab's smoke, as CI runs it: every variant's patches apply, its kernel builds
// (or is reused from the cache) and boots under qemu, and lab-init's checks pass inside.
// Kernel builds are cached in /var/tmp/snare-lab-cache across runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string Runfile(const std::string& path) {
  const char* dir = getenv("TEST_SRCDIR");
  return std::string(dir ? dir : ".") + "/snare/" + path;
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
