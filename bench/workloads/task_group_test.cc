#include "bench/workloads/task_group.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::bench {
namespace {

// Counts to nothing; fails, crashes or hangs where told to.
class ScriptedBody : public TaskBody {
 public:
  enum class Mode { kWork, kFailPrepare, kFailRun, kAbortInRun, kHangInRun };
  explicit ScriptedBody(Mode mode = Mode::kWork) : mode_(mode) {}

  std::optional<TaskFailure> Prepare() override {
    if (mode_ == Mode::kFailPrepare) return TaskFailure{"open", ENOENT};
    return std::nullopt;
  }

  std::optional<TaskFailure> Run(uint64_t count) override {
    switch (mode_) {
      case Mode::kFailRun:
        return TaskFailure{"the body gave up", 0};
      case Mode::kAbortInRun:
        abort();
      case Mode::kHangInRun:
        pause();
        break;
      default:
        break;
    }
    for (uint64_t i = 0; i < count; ++i) sink_ = sink_ + 1;
    return std::nullopt;
  }

 private:
  Mode mode_;
  volatile uint64_t sink_ = 0;
};

TaskGroupOptions QuickOptions(TaskKind kind) {
  TaskGroupOptions options;
  options.name = "test";
  options.kind = kind;
  options.warmup_seconds = 0.01;
  options.seconds = 0.05;
  options.ops_per_clock_check = 16;
  options.finish_slack_seconds = 1;
  return options;
}

std::expected<TaskGroupResult, std::string> RunBodies(const TaskGroupOptions& options,
                                                      std::vector<ScriptedBody>& bodies) {
  std::vector<TaskBody*> pointers;
  for (ScriptedBody& body : bodies) pointers.push_back(&body);
  return RunTaskGroup(options, pointers);
}

class TaskGroupTest : public testing::TestWithParam<TaskKind> {};

TEST_P(TaskGroupTest, MeasuresEveryTask) {
  std::vector<ScriptedBody> bodies(3);
  std::expected<TaskGroupResult, std::string> result = RunBodies(QuickOptions(GetParam()), bodies);
  ASSERT_TRUE(result.has_value()) << result.error();
  ASSERT_EQ(result->tasks.size(), 3u);
  for (const TaskMeasurement& task : result->tasks) {
    EXPECT_GT(task.ops, 0u);
    EXPECT_EQ(task.ops % 16, 0u);
    EXPECT_GE(task.seconds, 0.05);
  }
  std::vector<double> rates = result->OpsPerSecond();
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_DOUBLE_EQ(rates[1], result->tasks[1].ops / result->tasks[1].seconds);
  EXPECT_GE(result->LongestSeconds(), 0.05);
}

TEST_P(TaskGroupTest, ReportsAFailedPrepare) {
  std::vector<ScriptedBody> bodies;
  bodies.emplace_back();
  bodies.emplace_back(ScriptedBody::Mode::kFailPrepare);
  std::expected<TaskGroupResult, std::string> result = RunBodies(QuickOptions(GetParam()), bodies);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error(), "test: task 1: open: ENOENT (No such file or directory)");
}

TEST_P(TaskGroupTest, ReportsAFailedRun) {
  std::vector<ScriptedBody> bodies;
  bodies.emplace_back(ScriptedBody::Mode::kFailRun);
  std::expected<TaskGroupResult, std::string> result = RunBodies(QuickOptions(GetParam()), bodies);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error(), "test: task 0: the body gave up");
}

TEST_P(TaskGroupTest, ReportsATaskThatDied) {
  std::vector<ScriptedBody> bodies;
  bodies.emplace_back();
  bodies.emplace_back(ScriptedBody::Mode::kAbortInRun);
  std::expected<TaskGroupResult, std::string> result = RunBodies(QuickOptions(GetParam()), bodies);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().find("killed by signal 6 (SIGABRT)"), std::string::npos)
      << result.error();
}

TEST_P(TaskGroupTest, KillsTasksThatMissTheDeadline) {
  std::vector<ScriptedBody> bodies;
  bodies.emplace_back(ScriptedBody::Mode::kHangInRun);
  bodies.emplace_back();
  TaskGroupOptions options = QuickOptions(GetParam());
  options.finish_slack_seconds = 0.2;
  std::expected<TaskGroupResult, std::string> result = RunBodies(options, bodies);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().find("timed out before reporting done"), std::string::npos)
      << result.error();
  EXPECT_NE(result.error().find("(0)"), std::string::npos) << result.error();
}

INSTANTIATE_TEST_SUITE_P(ProcessesAndThreads, TaskGroupTest,
                         testing::Values(TaskKind::kProcess, TaskKind::kThread),
                         [](const testing::TestParamInfo<TaskKind>& info) {
                           return info.param == TaskKind::kProcess ? "Processes" : "Threads";
                         });

TEST(TaskGroupArgsTest, ChecksArguments) {
  EXPECT_TRUE(CheckWorkloadArgs(1, 0.1, 0).has_value());
  EXPECT_TRUE(CheckWorkloadArgs(kMaxTasks, kMaxTaskSeconds, kMaxTaskSeconds).has_value());
  EXPECT_EQ(CheckWorkloadArgs(0, 1, 0).error(), "tasks must be in 1..1024, got 0");
  EXPECT_EQ(CheckWorkloadArgs(1, 0, 0).error(), "seconds must be in (0, 86400], got 0");
  EXPECT_EQ(CheckWorkloadArgs(1, 1, -2).error(), "warmup_seconds must be in [0, 86400], got -2");
}

TEST(TaskGroupArgsTest, RejectsEmptyAndNullBodies) {
  TaskGroupOptions options = QuickOptions(TaskKind::kProcess);
  EXPECT_EQ(RunTaskGroup(options, {}).error(), "test: tasks must be in 1..1024, got 0");
  std::vector<TaskBody*> bodies = {nullptr};
  EXPECT_EQ(RunTaskGroup(options, bodies).error(), "test: a task has no body");
}

}  // namespace
}  // namespace snare::bench
