#include "kernel/lab/guest_boot.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

namespace snare::lab {
namespace {

TEST(IsSplatLineTest, TheFirstLinesOfKernelBugReports) {
  for (const char* line : {
           "BUG: KASAN: slab-use-after-free in __sigqueue_free+0x1c/0x60",
           "BUG: KFENCE: out-of-bounds read in dec_rlimit_ucounts+0x2a/0x70",
           "BUG: sleeping function called from invalid context at mm/slub.c:4174",
           "BUG kmalloc-64 (Not tainted): Redzone overwritten",
           "WARNING: possible circular locking dependency detected",
           "WARNING: CPU: 0 PID: 1 at kernel/ucount.c:300 dec_rlimit_ucounts+0x5e/0x70",
           "WARNING: suspicious RCU usage",
           "------------[ cut here ]------------",
           "ODEBUG: free active (active state 0) object: 0000 object type: rcu_head",
           "list_add corruption. prev->next should be next (ffff888003a1c0c0)",
           "kernel BUG at kernel/signal.c:471!",
           "Oops: general protection fault, probably for non-canonical address",
           "INFO: possible recursive locking detected",
           "[    3.123456] BUG: KASAN: use-after-free in kfree_rcu_work+0x3/0x10\r",
       }) {
    EXPECT_TRUE(IsSplatLine(line)) << line;
  }
}

TEST(IsSplatLineTest, OrdinaryConsoleLinesAreNot) {
  for (const char* line : {
           "Linux version 6.12.117 (root@host) (gcc (Debian 12.2.0-14) 12.2.0) #1",
           "Run /init as init process",
           "snare-lab: selftest x86/sigreturn_64",
           "Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on",
           "ACPI: PM-Timer IO Port: 0x608",
           "kfence: initialized - using 2097152 bytes for 255 objects",
           "[    0.000000] Kernel command line: console=ttyS0 loglevel=5",
           "",
       }) {
    EXPECT_FALSE(IsSplatLine(line)) << line;
  }
}

TEST(VerdictOfTest, FollowsKselftestsExitStatus) {
  SelftestOutcome o;
  o.exit_status = 0;
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kPass);
  o.exit_status = 4;  // KSFT_SKIP
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kSkip);
  o.exit_status = 1;
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kFail);
  o = {};
  o.exit_status = 0;
  o.timed_out = true;
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kFail);
  o.timed_out = false;
  o.signal = 11;
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kFail);
  o.signal = 0;
  o.error = "fork: Resource temporarily unavailable";
  EXPECT_EQ(VerdictOf(o), SelftestVerdict::kFail);
}

// A stand-in for qemu on PATH, printing what a booted debug kernel and lab-init would.
class FakeQemuTest : public testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/guest_boot_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const char* path = getenv("PATH");
    old_path_ = path ? path : "";
    setenv("PATH", (dir_ + ":" + old_path_).c_str(), 1);
  }
  void TearDown() override {
    setenv("PATH", old_path_.c_str(), 1);
    system(("rm -rf " + dir_).c_str());
  }
  void Console(const std::string& lines) {
    std::string qemu = dir_ + "/qemu-system-x86_64";
    std::ofstream(qemu) << "#!/bin/sh\ncat <<'EOF'\n" << lines << "EOF\n";
    chmod(qemu.c_str(), 0755);
  }
  BootOptions Options() {
    BootOptions o;
    o.bzimage = dir_ + "/bzImage";
    o.initrd = dir_ + "/initrd";
    o.variant = "reserve+debug";
    o.timeout_s = 30;
    return o;
  }
  std::string dir_, old_path_;
};

TEST_F(FakeQemuTest, KeepsASplatWithTheLinesAfterIt) {
  Console(
      "Linux version 6.12.117\n"
      "SNARE-LAB-BEGIN {\"kernel\":\"6.12.117\",\"cpus\":2}\n"
      "------------[ cut here ]------------\n"
      "WARNING: CPU: 1 PID: 57 at kernel/signal.c:470 __sigqueue_free+0x8e/0xa0\n"
      "Call Trace:\n"
      " <TASK>\n"
      "SNARE-LAB-CHECK {\"name\":\"no-leak\",\"pass\":true,\"detail\":\"\"}\n"
      "SNARE-LAB-END {\"checks_passed\":1,\"checks_failed\":0}\n");
  auto result = BootLabKernel(Options(), nullptr);
  ASSERT_TRUE(result) << result.error();
  ASSERT_EQ(result->splats.size(), 4u);
  EXPECT_EQ(result->splats[0], "------------[ cut here ]------------");
  EXPECT_EQ(result->splats[3], " <TASK>");
  ASSERT_EQ(result->checks.size(), 1u);
}

TEST_F(FakeQemuTest, ReadsSelftestOutcomes) {
  Console(
      "SNARE-LAB-BEGIN {\"kernel\":\"6.12.117\",\"cpus\":2}\n"
      "SNARE-LAB-SELFTEST {\"name\":\"seccomp/seccomp_bpf\",\"exit\":0,\"signal\":0,"
      "\"timed_out\":false,\"ok\":95,\"not_ok\":0,\"skip\":4,\"seconds\":151.2,"
      "\"error\":\"\",\"failed\":[]}\n"
      "SNARE-LAB-SELFTEST {\"name\":\"timers/posix_timers\",\"exit\":1,\"signal\":0,"
      "\"timed_out\":false,\"ok\":13,\"not_ok\":1,\"skip\":0,\"seconds\":29.6,"
      "\"error\":\"\",\"failed\":[\"not ok 9 check_rearm\"]}\n"
      "SNARE-LAB-END {\"checks_passed\":0,\"checks_failed\":0}\n");
  auto result = BootLabKernel(Options(), nullptr);
  ASSERT_TRUE(result) << result.error();
  EXPECT_TRUE(result->splats.empty());
  ASSERT_EQ(result->selftests.size(), 2u);
  EXPECT_EQ(result->selftests[0].name, "seccomp/seccomp_bpf");
  EXPECT_EQ(result->selftests[0].ok, 95);
  EXPECT_EQ(result->selftests[0].skip, 4);
  EXPECT_EQ(VerdictOf(result->selftests[0]), SelftestVerdict::kPass);
  EXPECT_EQ(VerdictOf(result->selftests[1]), SelftestVerdict::kFail);
  EXPECT_EQ(result->selftests[1].failed, std::vector<std::string>{"not ok 9 check_rearm"});
}

}  // namespace
}  // namespace snare::lab
