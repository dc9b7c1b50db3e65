#include "util/cpu_time.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>


namespace snare::util {
namespace {

// Spends `seconds` of this process's CPU time (not wall time: on a loaded machine the wall
// clock runs ahead of it).
void Burn(double seconds) {
  const double end = ProcessCpuSeconds() + seconds;
  volatile uint64_t x = 0;
  while (ProcessCpuSeconds() < end) x = x + 1;
}

TEST(CpuTimeTest, CountsOwnAndWaitedChildrensTime) {
  const double own0 = ProcessCpuSeconds(), children0 = ChildrenCpuSeconds();
  Burn(0.05);
  EXPECT_GE(ProcessCpuSeconds() - own0, 0.03);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Burn(0.1);
    _exit(0);
  }
  EXPECT_LT(ChildrenCpuSeconds() - children0, 0.01);  // not waited for yet
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  EXPECT_GE(ChildrenCpuSeconds() - children0, 0.06);
}

}  // namespace
}  // namespace snare::util
