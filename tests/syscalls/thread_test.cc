// Threads: pthread_create(3) threads that make syscalls and join (glibc 2.36's
// pthread_create uses clone3, so this also covers clone3 threads), and gettid(2).
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
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

}  // namespace
}  // namespace snare_syscalls
