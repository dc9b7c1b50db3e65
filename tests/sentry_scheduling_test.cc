// The sentry's serving thread asks the fair scheduler for its shortest slice (0.1 ms), so that
// woken by a trap it preempts running guest threads instead of waiting out their slices
// (util/scheduler_slice.h). Read from outside, with sched_getattr on each of snare's threads
// while a guest runs.
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/scheduler_slice.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using Clock = std::chrono::steady_clock;

// The slice each live thread of `pid` asks for.
std::vector<uint64_t> ThreadSlices(pid_t pid) {
  std::vector<uint64_t> slices;
  DIR* dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!dir) return slices;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    if (auto slice = util::SchedulerSlice(std::stoi(e->d_name))) slices.push_back(*slice);
  }
  closedir(dir);
  return slices;
}

class SentrySchedulingTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SentrySchedulingTest, ServingThreadAsksForTheShortestSlice) {
  auto own = util::SchedulerSlice();
  ASSERT_TRUE(own) << own.error();
  if (*own == 0) GTEST_SKIP() << "this kernel has no per-thread slice (Linux < 6.12)";
  ASSERT_NE(*own, util::kShortestSchedulerSliceNs)
      << "the test's own thread already asks for 0.1 ms";
  auto snare_path = SnareBinary();
  ASSERT_TRUE(snare_path.has_value()) << snare_path.error();
  util::Subprocess snare;
  util::SubprocessOptions options;
  options.timeout = std::chrono::seconds(60);
  ASSERT_TRUE(
      snare.Start({*snare_path, "run", "--platform=" + GetParam(), "--", "sleep", "30"}, options));
  std::vector<uint64_t> slices;
  bool found = false;
  for (const auto deadline = Clock::now() + std::chrono::seconds(10);
       !found && Clock::now() < deadline;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    slices = ThreadSlices(snare.pid());
    for (uint64_t s : slices) found |= s == util::kShortestSchedulerSliceNs;
  }
  kill(snare.pid(), SIGKILL);
  snare.Wait();
  std::string seen;
  for (uint64_t s : slices) seen += std::to_string(s) + " ";
  EXPECT_TRUE(found) << "no thread of snare asks for a 0.1 ms slice; slices seen: " << seen;
  // Only the threads that answer the guest: snare's main thread only waits.
  EXPECT_LT(std::count(slices.begin(), slices.end(), util::kShortestSchedulerSliceNs),
            static_cast<long>(slices.size()));
}

INSTANTIATE_TEST_SUITE_P(Platforms, SentrySchedulingTest, ::testing::Values("systrap", "inproc"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace snare::tests
