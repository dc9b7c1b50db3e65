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

// On the live kernel: with a spinning thread per allowed CPU beside this one, more tasks are
// runnable than there are CPUs; the answer holds for the check interval, then is read again,
// and one read that finds the CPUs free ends it.
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

// Two crowded reads in a row make crowding, one free read ends it, and between reads the
// answer stands (a file in place of /proc/loadavg, rewritten between reads).
TEST(CpuCrowdingTest, TwoCrowdedReadsStartItAndOneFreeReadEndsIt) {
  const std::string path = ::testing::TempDir() + "/loadavg";
  auto write = [&](const char* text) { std::ofstream(path, std::ios::trunc) << text; };
  write("1.00 1.00 1.00 5/300 1\n");
  CpuCrowding crowding(4, path.c_str());
  const uint64_t step = CpuCrowding::kCheckIntervalNs;
  EXPECT_FALSE(crowding.Crowded(1 * step));  // 5 > 4 once: not yet
  EXPECT_TRUE(crowding.Crowded(2 * step));   // twice
  write("1.00 1.00 1.00 4/300 1\n");
  EXPECT_TRUE(crowding.Crowded(3 * step - 1));  // within the interval: not read
  EXPECT_FALSE(crowding.Crowded(3 * step));     // 4 tasks on 4 CPUs
  write("1.00 1.00 1.00 9/300 1\n");
  EXPECT_FALSE(crowding.Crowded(4 * step));
  write("1.00 1.00 1.00 1/300 1\n");
  EXPECT_FALSE(crowding.Crowded(5 * step));  // the crowded read was alone
  EXPECT_EQ(crowding.crowded_reads(), 1u);
  write("garbage\n");
  EXPECT_FALSE(crowding.Crowded(6 * step));
  EXPECT_FALSE(crowding.Crowded(7 * step));
}

TEST(CpuCrowdingTest, NeverCrowdedWithoutTheFile) {
  CpuCrowding crowding(0, "/nonexistent/loadavg");
  EXPECT_FALSE(crowding.Crowded(0));
  EXPECT_FALSE(crowding.Crowded(CpuCrowding::kCheckIntervalNs));
}

}  // namespace
}  // namespace snare::systrap
