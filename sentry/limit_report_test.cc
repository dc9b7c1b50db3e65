#include "sentry/limit_report.h"

#include <sys/resource.h>
#include <sys/syscall.h>

#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

std::vector<platform::SyscallCounters> Counters() {
  return std::vector<platform::SyscallCounters>(512);
}

TEST(LimitReportTest, NothingLimitedSaysNothing) {
  auto counters = Counters();
  counters[SYS_openat].errors = 5;  // other failures are the guest's business
  EXPECT_EQ(LimitReport(counters, {{RLIMIT_NPROC, 1000, 1000}}), "");
}

TEST(LimitReportTest, NamesEachLimitAndItsValue) {
  auto counters = Counters();
  counters[SYS_clone].limited = 2;
  counters[SYS_fork].limited = 1;
  counters[SYS_openat].limited = 4;
  counters[SYS_socket].limited = 1;
  counters[SYS_mmap].limited = 7;
  const std::string line = LimitReport(counters, {{RLIMIT_NPROC, 1000, 1000},
                                                  {RLIMIT_NOFILE, 4096, 4096},
                                                  {RLIMIT_AS, 2ull << 30, 2ull << 30}});
  EXPECT_EQ(line,
            "snare: the guest ran into its limits: 3 forks or threads refused (EAGAIN) "
            "(nproc=1000); 5 new fds refused (EMFILE) (nofile=4096); 7 memory requests "
            "refused (ENOMEM) (as=2048M); --rlimit=NAME=N raises one (up to snare's own)\n");
}

TEST(LimitReportTest, WithoutAProfileLimitNoValue) {
  auto counters = Counters();
  counters[SYS_openat].limited = 1;
  EXPECT_EQ(LimitReport(counters, {}),
            "snare: the guest ran into its limits: 1 new fds refused (EMFILE)\n");
}

TEST(LimitReportTest, TheCgroupsCountsNameItsBounds) {
  auto counters = Counters();
  counters[SYS_clone].limited = 4;
  CgroupBounds cgroup;
  cgroup.memory_bytes = uint64_t{64} << 20;
  cgroup.pids = 32;
  cgroup.events.oom_kills = 2;
  cgroup.events.pids_refused = 4;
  EXPECT_EQ(LimitReport(counters, {{RLIMIT_NPROC, 1000, 1000}}, cgroup),
            "snare: the guest ran into its limits: 4 forks or threads refused (EAGAIN) "
            "(--pids=32); 2 processes killed at the memory bound (--memory=64M); --memory, "
            "--pids and --rlimit=NAME=N raise one (an rlimit up to snare's own)\n");
}

}  // namespace
}  // namespace snare::sentry
