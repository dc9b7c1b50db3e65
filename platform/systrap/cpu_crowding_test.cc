#include "platform/systrap/cpu_crowding.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace snare::systrap {
namespace {

TEST(CpuCrowdingTest, ReadsTheRunnableCountOfLoadavg) {
  EXPECT_EQ(CpuCrowding::Runnable("0.52 0.58 0.59 3/467 12345\n"), 3);
  EXPECT_EQ(CpuCrowding::Runnable("12.00 9.10 4.02 17/2048 99"), 17);
  EXPECT_EQ(CpuCrowding::Runnable(""), std::nullopt);
  EXPECT_EQ(CpuCrowding::Runnable("0.52 0.58 0.59 /467 1"), std::nullopt);
  EXPECT_EQ(CpuCrowding::Runnable("0.52 0.58 0.59 x/467 1"), std::nullopt);
  EXPECT_EQ(CpuCrowding::Runnable("0.52 0.58"), std::nullopt);
}

// On the live kernel: with a spinning thread per allowed CPU and one more beside this one, no
// CPU is left; the answer holds for the check interval.
TEST(CpuCrowdingTest, FindsTheCpusCrowdedWhileMoreThreadsSpinThanThereAreCpus) {
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  const int cpus = CPU_COUNT(&set);
  CpuCrowding crowding(cpus);
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < cpus + 1; ++i) {
    spinners.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  // The kernel's count moves with the spinners' scheduling: ask a few times.
  bool crowded = false;
  uint64_t now = CpuCrowding::kCheckIntervalNs;
  for (int i = 0; i < 50 && !crowded; ++i, now += CpuCrowding::kCheckIntervalNs) {
    crowded = crowding.Crowded(now);
  }
  EXPECT_TRUE(crowded);
  // Within the interval the last answer stands, whatever the spinners do.
  stop = true;
  for (auto& t : spinners) t.join();
  EXPECT_TRUE(crowding.Crowded(now - CpuCrowding::kCheckIntervalNs + 1));
  EXPECT_GE(crowding.crowded_reads(), 1u);
}

// Two crowded reads in a row make crowding, one free read ends it, between reads the answer
// stands, and the guest's own runnable threads do not count (a file in place of
// /proc/loadavg, rewritten between reads).
TEST(CpuCrowdingTest, TwoCrowdedReadsStartItAndOneFreeReadEndsIt) {
  const std::string path = ::testing::TempDir() + "/loadavg";
  auto write = [&](const char* text) { std::ofstream(path, std::ios::trunc) << text; };
  // 4 CPUs, one guest thread: crowded once more than 2 other tasks are runnable beside it and
  // the sentry (5 runnable in all).
  write("1.00 1.00 1.00 5/300 1\n");
  CpuCrowding crowding(4, path.c_str());
  const uint64_t step = CpuCrowding::kCheckIntervalNs;
  EXPECT_FALSE(crowding.Crowded(1 * step, 1));  // once: not yet
  EXPECT_TRUE(crowding.Crowded(2 * step, 1));   // twice
  write("1.00 1.00 1.00 4/300 1\n");
  EXPECT_TRUE(crowding.DueAt(3 * step));
  EXPECT_FALSE(crowding.DueAt(3 * step - 1));
  EXPECT_TRUE(crowding.Crowded(3 * step - 1, 1));  // within the interval: not read
  EXPECT_FALSE(crowding.Crowded(3 * step, 1));     // two others leave the two CPUs needed
  write("1.00 1.00 1.00 9/300 1\n");
  EXPECT_FALSE(crowding.Crowded(4 * step, 1));
  write("1.00 1.00 1.00 1/300 1\n");
  EXPECT_FALSE(crowding.Crowded(5 * step, 1));  // the crowded read was alone
  EXPECT_EQ(crowding.crowded_reads(), 1u);
  // Eight guest threads and the sentry: the guest crowds itself, which is not this.
  write("1.00 1.00 1.00 9/300 1\n");
  EXPECT_FALSE(crowding.Crowded(6 * step, 8));
  EXPECT_FALSE(crowding.Crowded(7 * step, 8));
  write("garbage\n");
  EXPECT_FALSE(crowding.Crowded(8 * step, 0));
  EXPECT_FALSE(crowding.Crowded(9 * step, 0));
}

TEST(CpuCrowdingTest, NeverCrowdedWithoutTheFile) {
  CpuCrowding crowding(0, "/nonexistent/loadavg");
  EXPECT_FALSE(crowding.Crowded(0));
  EXPECT_FALSE(crowding.Crowded(CpuCrowding::kCheckIntervalNs));
}

}  // namespace
}  // namespace snare::systrap
