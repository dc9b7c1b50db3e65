#include "util/allowed_cpus.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <thread>

#include "gtest/gtest.h"

namespace snare::util {
namespace {

TEST(AllowedCpusTest, ListsTheThreadsMaskInOrder) {
  auto cpus = AllowedCpus();
  ASSERT_TRUE(cpus) << cpus.error();
  ASSERT_FALSE(cpus->empty());
  EXPECT_TRUE(std::is_sorted(cpus->begin(), cpus->end()));
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(cpus->size(), static_cast<size_t>(CPU_COUNT(&set)));
  for (int cpu : *cpus) EXPECT_TRUE(CPU_ISSET(cpu, &set)) << cpu;
}

TEST(AllowedCpusTest, FollowsAThreadPinnedToOneCpu) {
  auto all = AllowedCpus();
  ASSERT_TRUE(all) << all.error();
  const int last = all->back();
  std::expected<std::vector<int>, std::string> seen;
  std::thread pinned([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(last, &one);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
    seen = AllowedCpus();
  });
  pinned.join();
  ASSERT_TRUE(seen) << seen.error();
  EXPECT_EQ(*seen, std::vector<int>{last});
}

}  // namespace
}  // namespace snare::util
