#include "util/scheduler_slice.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

#include "gtest/gtest.h"

namespace snare::util {
namespace {

// Whether this kernel reports a fair thread's slice (6.12 and later), from a fresh thread.
bool KernelReportsSlices() {
  bool reports = false;
  std::thread([&] {
    auto slice = SchedulerSlice();
    reports = slice && *slice != 0;
  }).join();
  return reports;
}

TEST(SchedulerSliceTest, TheThreadAsksForTheSliceItRequested) {
  if (!KernelReportsSlices()) GTEST_SKIP() << "this kernel has no per-thread slice (Linux < 6.12)";
  std::expected<void, std::string> set;
  std::expected<uint64_t, std::string> before, after, other;
  std::thread([&] {
    before = SchedulerSlice();
    set = RequestSchedulerSlice(250'000);
    after = SchedulerSlice();
  }).join();
  std::thread([&] { other = SchedulerSlice(); }).join();
  ASSERT_TRUE(set) << set.error();
  ASSERT_TRUE(before && after && other);
  EXPECT_NE(*before, 250'000u);
  EXPECT_EQ(*after, 250'000u);
  EXPECT_EQ(*other, *before) << "another thread's slice changed too";
}

TEST(SchedulerSliceTest, KeepsTheThreadsNiceValue) {
  std::expected<void, std::string> set;
  int nice_after = 0;
  std::thread([&] {
    const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
    // Raising one's own nice value needs no privilege; lowering it again would.
    ASSERT_EQ(setpriority(PRIO_PROCESS, static_cast<id_t>(tid), 7), 0);
    set = RequestSchedulerSlice(100'000);
    nice_after = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  }).join();
  ASSERT_TRUE(set) << set.error();
  EXPECT_EQ(nice_after, 7);
}

}  // namespace
}  // namespace snare::util
