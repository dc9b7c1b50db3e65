#include "bench/workloads/seed_workloads.h"

#include <sched.h>
#include <signal.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <tuple>

#include "gtest/gtest.h"

namespace snare::bench {
namespace {

using Workload = std::function<std::expected<WorkloadResult, std::string>(int tasks, double seconds,
                                                                          double warmup_seconds)>;

struct NamedWorkload {
  const char* name;          // test name
  const char* error_prefix;  // how its errors begin
  Workload run;
};

const NamedWorkload kWorkloads[] = {
    {"Signal1Processes", "signal1: ",
     [](int tasks, double seconds, double warmup) {
       return RunSignal1(tasks, /*threads=*/false, seconds, warmup);
     }},
    {"Signal1Threads", "signal1-threads: ",
     [](int tasks, double seconds, double warmup) {
       return RunSignal1(tasks, /*threads=*/true, seconds, warmup);
     }},
    {"Tasklist", "tasklist: ", RunTasklistBench},
    {"ThreadCreateJoin", "thread-create-join: ", RunThreadCreateJoin},
};

constexpr double kSeconds = 0.2;

class SeedWorkloadTest : public testing::TestWithParam<std::tuple<int, int>> {
 protected:
  const NamedWorkload& workload() const { return kWorkloads[std::get<0>(GetParam())]; }
  int tasks() const { return std::get<1>(GetParam()); }
};

TEST_P(SeedWorkloadTest, ReportsOnePositiveRatePerTask) {
  std::expected<WorkloadResult, std::string> result =
      workload().run(tasks(), kSeconds, kDefaultWarmupSeconds);
  ASSERT_TRUE(result.has_value()) << result.error();
  ASSERT_EQ(result->per_task_ops_per_s.size(), static_cast<size_t>(tasks()));
  for (double rate : result->per_task_ops_per_s) {
    EXPECT_GT(rate, 0);
    EXPECT_TRUE(std::isfinite(rate));
  }
  EXPECT_GE(result->seconds, kSeconds);
  EXPECT_LT(result->seconds, kSeconds + 1);
}

TEST_P(SeedWorkloadTest, RunsWithoutWarmup) {
  std::expected<WorkloadResult, std::string> result = workload().run(tasks(), 0.05, 0);
  ASSERT_TRUE(result.has_value()) << result.error();
  EXPECT_EQ(result->per_task_ops_per_s.size(), static_cast<size_t>(tasks()));
}

INSTANTIATE_TEST_SUITE_P(OneAndTwoTasks, SeedWorkloadTest,
                         testing::Combine(testing::Range(0,
                                                         static_cast<int>(std::size(kWorkloads))),
                                          testing::Values(1, 2)),
                         [](const testing::TestParamInfo<std::tuple<int, int>>& info) {
                           return std::string(kWorkloads[std::get<0>(info.param)].name) + "_" +
                                  std::to_string(std::get<1>(info.param)) + "Tasks";
                         });

class SeedWorkloadArgsTest : public testing::TestWithParam<int> {
 protected:
  const NamedWorkload& workload() const { return kWorkloads[GetParam()]; }

  // Runs with the given arguments, expects an error and returns its text.
  std::string ErrorFor(int tasks, double seconds, double warmup) {
    std::expected<WorkloadResult, std::string> result = workload().run(tasks, seconds, warmup);
    EXPECT_FALSE(result.has_value());
    if (result.has_value()) return "";
    EXPECT_TRUE(result.error().starts_with(workload().error_prefix)) << result.error();
    return result.error();
  }
};

TEST_P(SeedWorkloadArgsTest, RejectsBadTaskCounts) {
  EXPECT_NE(ErrorFor(0, kSeconds, 0).find("tasks must be in 1..1024, got 0"), std::string::npos);
  EXPECT_NE(ErrorFor(-3, kSeconds, 0).find("got -3"), std::string::npos);
  EXPECT_NE(ErrorFor(1025, kSeconds, 0).find("got 1025"), std::string::npos);
}

TEST_P(SeedWorkloadArgsTest, RejectsBadSeconds) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NE(ErrorFor(1, 0, 0).find("seconds must be in (0, 86400], got 0"), std::string::npos);
  EXPECT_NE(ErrorFor(1, -1, 0).find("got -1"), std::string::npos);
  EXPECT_NE(ErrorFor(1, nan, 0).find("got nan"), std::string::npos);
  EXPECT_NE(ErrorFor(1, inf, 0).find("got inf"), std::string::npos);
  EXPECT_NE(ErrorFor(1, 1e9, 0).find("got 1e+09"), std::string::npos);
}

TEST_P(SeedWorkloadArgsTest, RejectsBadWarmup) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(ErrorFor(1, kSeconds, -0.1).find("warmup_seconds must be in [0, 86400], got -0.1"),
            std::string::npos);
  EXPECT_NE(ErrorFor(1, kSeconds, nan).find("warmup_seconds"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, SeedWorkloadArgsTest,
                         testing::Range(0, static_cast<int>(std::size(kWorkloads))),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::string(kWorkloads[info.param].name);
                         });

// Sets what a hostile caller might have set, and puts everything back when it goes away.
class HostileCallerState {
 public:
  HostileCallerState() {
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGUSR1, &ignore, &old_usr1_);
    sigaction(SIGTERM, &ignore, &old_term_);
    sigaction(SIGCHLD, &ignore, &old_chld_);  // children get reaped by the kernel
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGUSR1);
    sigaddset(&blocked, SIGTERM);
    sigprocmask(SIG_BLOCK, &blocked, &old_mask_);
  }
  ~HostileCallerState() {
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    sigaction(SIGUSR1, &old_usr1_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
  }

 private:
  struct sigaction old_usr1_, old_term_, old_chld_;
  sigset_t old_mask_;
};

// The workloads run inside a driver process, natively and under `snare run`: they must
// work whatever that process set, change none of it, and print nothing.
TEST(SeedWorkloadsTest, LeaveTheCallerAloneAndWorkWhateverItSet) {
  HostileCallerState hostile;
  cpu_set_t affinity_before;
  ASSERT_EQ(sched_getaffinity(0, sizeof(affinity_before), &affinity_before), 0);

  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  std::string errors;
  for (const NamedWorkload& workload : kWorkloads) {
    std::expected<WorkloadResult, std::string> result = workload.run(2, 0.05, 0.01);
    if (!result.has_value()) {
      errors += result.error() + "\n";
    } else if (result->per_task_ops_per_s.size() != 2) {
      errors += std::string(workload.name) + ": wrong number of rates\n";
    }
  }
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(errors, "");

  struct sigaction now;
  ASSERT_EQ(sigaction(SIGUSR1, nullptr, &now), 0);
  EXPECT_EQ(now.sa_handler, SIG_IGN);
  ASSERT_EQ(sigaction(SIGTERM, nullptr, &now), 0);
  EXPECT_EQ(now.sa_handler, SIG_IGN);
  sigset_t mask_now;
  ASSERT_EQ(sigprocmask(SIG_BLOCK, nullptr, &mask_now), 0);
  EXPECT_EQ(sigismember(&mask_now, SIGUSR1), 1);
  EXPECT_EQ(sigismember(&mask_now, SIGTERM), 1);
  cpu_set_t affinity_after;
  ASSERT_EQ(sched_getaffinity(0, sizeof(affinity_after), &affinity_after), 0);
  EXPECT_TRUE(CPU_EQUAL(&affinity_before, &affinity_after));
}

}  // namespace
}  // namespace snare::bench
