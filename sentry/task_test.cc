#include "sentry/task.h"

#include <functional>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "policy/default_policy.h"
#include "policy/evaluator.h"
#include "sentry/syscall_handler.h"

namespace snare::sentry {
namespace {

// A guest thread that never traps: Switch() waits (yields) until told to end.
class IdleContext : public platform::Context {
 public:
  IdleContext(std::function<bool()> yield, int* gone) : yield_(std::move(yield)), gone_(gone) {}
  platform::Event Switch(const policy::Verdict*) override {
    while (yield_()) {
    }
    ++*gone_;
    return platform::Event{};  // kGone
  }
  bool Completed(uint32_t, uint64_t, int64_t*) const override { return false; }

 private:
  std::function<bool()> yield_;
  int* gone_;
};

class IdleMachine : public platform::Machine {
 public:
  int gone = 0;

  const platform::GuestEntry& Entry() const override { return entry_; }
  uint32_t MaxThreads() const override { return 1; }
  bool AnswersTraps() const override { return true; }
  policy::PolicyContext Guarded(const policy::PolicyTable* table) const override {
    return {table, nullptr, 0, -1, -1};
  }
  bool CollectTraps(std::vector<platform::TrapSource>*) override { return false; }
  void Idle(std::vector<uint32_t>*) override {}
  void Release(const std::vector<uint32_t>&) override {}
  void Wake() override {}
  std::unique_ptr<platform::Context> NewContext(const platform::TrapSource&,
                                                std::function<bool()> yield) override {
    return std::make_unique<IdleContext>(std::move(yield), &gone);
  }
  void WatchSentry(pid_t) override {}
  void SetGuestProc(int) override {}
  std::vector<platform::SyscallCounters> Counters() const override { return {}; }

 private:
  platform::GuestEntry entry_;
};

// A Task that ends while its guest thread waits returns from its loop (Switch() says kGone)
// instead of having its fiber's stack unwound by an exception, which cost 0.3-1.2 ms at
// every snare run's end in a static binary.
TEST(TaskTest, ATaskEndedWhileWaitingReturnsFromItsLoop) {
  const policy::PolicyTable table = *policy::DefaultPolicy().TryBuild();
  IdleMachine machine;
  SyscallHandler handler(machine.Guarded(&table), nullptr, "");
  auto task = std::make_unique<Task>(&machine, platform::TrapSource{0, 1}, &handler);
  task->Resume();
  EXPECT_FALSE(task->finished());
  EXPECT_EQ(machine.gone, 0);
  task.reset();
  EXPECT_EQ(machine.gone, 1);
}

}  // namespace
}  // namespace snare::sentry
