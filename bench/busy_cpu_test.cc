#include "bench/busy_cpu.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <thread>

namespace snare::bench {
namespace {

size_t ThreadsOfThisProcess() {
  const std::filesystem::directory_iterator tasks("/proc/self/task");
  return static_cast<size_t>(std::distance(begin(tasks), end(tasks)));
}

TEST(BusyCpuTest, SpinsAtIdlePolicyWhileAliveAndLeavesNoThread) {
  const size_t before = ThreadsOfThisProcess();
  {
    BusyCpu busy;
    EXPECT_EQ(ThreadsOfThisProcess(), before + 1);
    // SCHED_IDLE gets little CPU where the test's neighbours take every one: wait for it.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (busy.rounds() < 1000 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_GE(busy.rounds(), 1000u);
    EXPECT_TRUE(busy.idle_policy());
  }
  EXPECT_EQ(ThreadsOfThisProcess(), before);
}

}  // namespace
}  // namespace snare::bench
