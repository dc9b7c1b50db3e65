// Threads: pthread_create(3) threads that make syscalls and join (glibc 2.36's
// pthread_create uses clone3, so this also covers clone3 threads), gettid(2), and what a child
// on a new stack starts with (the parent's registers, FPU control state included).
#include <fcntl.h>
#include <fenv.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

struct ThreadReport {
  pid_t tid = 0;
  pid_t pid = 0;
  bool pipe_round_trip = false;
};

void* ThreadBody(void* arg) {
  auto* report = static_cast<ThreadReport*>(arg);
  report->tid = static_cast<pid_t>(syscall(SYS_gettid));
  report->pid = getpid();
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return nullptr;
  char out[8];
  memcpy(out, &report->tid, sizeof(report->tid));
  char in[8] = {};
  report->pipe_round_trip = write(fds[1], out, sizeof(report->tid)) == sizeof(report->tid) &&
                            read(fds[0], in, sizeof(in)) == sizeof(report->tid) &&
                            memcmp(in, out, sizeof(report->tid)) == 0 && getppid() > 0;
  close(fds[0]);
  close(fds[1]);
  return nullptr;
}

TEST(PthreadTest, SixteenThreadsRunSyscallsAndJoin) {
  constexpr int kThreads = 16;
  std::vector<ThreadReport> reports(kThreads);
  std::vector<pthread_t> threads(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_EQ(pthread_create(&threads[i], nullptr, ThreadBody, &reports[i]), 0);
  }
  for (int i = 0; i < kThreads; ++i) ASSERT_EQ(pthread_join(threads[i], nullptr), 0);
  std::set<pid_t> tids;
  for (const ThreadReport& r : reports) {
    EXPECT_EQ(r.pid, getpid());
    EXPECT_NE(r.tid, getpid());
    EXPECT_TRUE(r.pipe_round_trip);
    tids.insert(r.tid);
  }
  EXPECT_EQ(tids.size(), static_cast<size_t>(kThreads)) << "thread ids are not distinct";
}

TEST(GettidTest, MainThreadTidIsPid) { EXPECT_EQ(syscall(SYS_gettid), getpid()); }

void* RoundingMode(void*) { return reinterpret_cast<void*>(static_cast<intptr_t>(fegetround())); }

// A new thread starts with its creator's FPU state (the rounding mode in MXCSR), which under
// snare comes from the copy of the creator's signal frame that the child returns through.
TEST(PthreadTest, NewThreadStartsWithTheCreatorsRoundingMode) {
  const int before = fegetround();
  ASSERT_EQ(fesetround(FE_UPWARD), 0);
  pthread_t thread;
  const int created = pthread_create(&thread, nullptr, RoundingMode, nullptr);
  fesetround(before);
  ASSERT_EQ(created, 0);
  void* mode = nullptr;
  ASSERT_EQ(pthread_join(thread, &mode), 0);
  EXPECT_EQ(reinterpret_cast<intptr_t>(mode), FE_UPWARD);
}

struct CloneChildReport {
  int rounding = -1;
  int value = 0;
};

int CloneChildBody(void* arg) {
  auto* report = static_cast<CloneChildReport*>(arg);
  report->rounding = fegetround();
  report->value = 42;
  return 7;
}

// clone(2) itself (not clone3) with CLONE_VM and a stack of the caller's: the child runs on
// that stack in the parent's memory, and its exit status and writes reach the parent.
TEST(CloneTest, ChildOnItsOwnStackSharesMemoryAndExits) {
  constexpr size_t kStack = 256 * 1024;
  std::vector<char> stack(kStack);
  CloneChildReport report;
  const int before = fegetround();
  ASSERT_EQ(fesetround(FE_DOWNWARD), 0);
  const pid_t child = clone(CloneChildBody, stack.data() + kStack, CLONE_VM | SIGCHLD, &report);
  fesetround(before);
  ASSERT_GT(child, 0) << strerror(errno);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(report.value, 42);
  EXPECT_EQ(report.rounding, FE_DOWNWARD);
}

}  // namespace
}  // namespace snare_syscalls
