#include "platform/systrap/cpu_mover.h"

#include <gtest/gtest.h>
#include <sched.h>

namespace snare::systrap {
namespace {

constexpr uint64_t kT = 1'000'000'000;

// Restores the test thread's CPU mask when a test ends.
class CpuMoverTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(sched_getaffinity(0, sizeof(saved_), &saved_), 0); }
  void TearDown() override { sched_setaffinity(0, sizeof(saved_), &saved_); }
  cpu_set_t saved_;
};

TEST_F(CpuMoverTest, MovesOffTheCpuAndKeepsTheWholeMask) {
  if (CPU_COUNT(&saved_) < 2) GTEST_SKIP() << "needs two CPUs";
  CpuMover mover;
  const int before = sched_getcpu();
  ASSERT_TRUE(mover.MoveOff(static_cast<uint32_t>(before), kT));
  EXPECT_NE(sched_getcpu(), before);
  EXPECT_EQ(mover.moves(), 1u);
  cpu_set_t now;
  ASSERT_EQ(sched_getaffinity(0, sizeof(now), &now), 0);
  EXPECT_TRUE(CPU_EQUAL(&now, &saved_));  // free to go back there later
}

TEST_F(CpuMoverTest, MovesAtMostOncePerInterval) {
  if (CPU_COUNT(&saved_) < 2) GTEST_SKIP() << "needs two CPUs";
  CpuMover mover;
  ASSERT_TRUE(mover.MoveOff(static_cast<uint32_t>(sched_getcpu()), kT));
  EXPECT_FALSE(mover.MoveOff(static_cast<uint32_t>(sched_getcpu()), kT + 1));
  EXPECT_FALSE(
      mover.MoveOff(static_cast<uint32_t>(sched_getcpu()), kT + CpuMover::kMinIntervalNs - 1));
  EXPECT_TRUE(mover.MoveOff(static_cast<uint32_t>(sched_getcpu()), kT + CpuMover::kMinIntervalNs));
  EXPECT_EQ(mover.moves(), 2u);
}

TEST_F(CpuMoverTest, NeverMovesWithOneCpuOrForACpuOutsideTheMask) {
  cpu_set_t one;
  CPU_ZERO(&one);
  const int cpu = sched_getcpu();
  CPU_SET(cpu, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  CpuMover mover;
  EXPECT_EQ(mover.allowed_cpus(), 1);
  EXPECT_FALSE(mover.MoveOff(static_cast<uint32_t>(cpu), kT));
  EXPECT_FALSE(mover.MoveOff(CPU_SETSIZE + 5, kT));
  EXPECT_EQ(sched_getcpu(), cpu);
  EXPECT_EQ(mover.moves(), 0u);
}

}  // namespace
}  // namespace snare::systrap
