#include "bench/bench_options.h"

namespace snare::bench {

const std::vector<std::string>& SuiteNames() {
  static const std::vector<std::string> names = {"ladder", "depth",    "contention", "workloads",
                                                 "peers",  "programs", "memory",     "cpython",
                                                 "stress", "crowded"};
  return names;
}

const std::vector<std::string>& RungNames() {
  static const std::vector<std::string> names = {
      "native",         "filter-allow",  "filter-errno",        "signal-floor", "handoff-floor",
      "inproc",         "systrap",       "systrap-futex",       "systrap-1cpu", "systrap-confined",
      "systrap-notify", "systrap-patch", "systrap-patch-sentry"};
  return names;
}

const std::vector<std::string>& CpythonModules() {
  static const std::vector<std::string> names = {"test_os",           "test_posix",
                                                 "test_signal",       "test_subprocess",
                                                 "test_threading",    "test_select",
                                                 "test_selectors",    "test_fcntl",
                                                 "test_mmap",         "test_pty",
                                                 "test_time",         "test_resource",
                                                 "test_epoll",        "test_poll",
                                                 "test_eintr",        "test_fork1",
                                                 "test_wait3",        "test_wait4",
                                                 "test_fileio",       "test_tempfile",
                                                 "test_shutil",       "test_pathlib",
                                                 "test_tarfile",      "test_zipfile",
                                                 "test_faulthandler", "test_concurrent_futures",
                                                 "test_io",           "test_multiprocessing_fork",
                                                 "test_asyncio"};
  return names;
}

}  // namespace snare::bench
