// LaunchGuest refuses to clone while snare has a second thread: the clone would inherit any
// lock that thread held (one run in a hundred hung in the guest's init under ASan).
#include "sentry/guest_launcher.h"

#include <sys/wait.h>

#include <future>
#include <thread>

#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

TEST(GuestLauncherTest, RefusesToLaunchWhileAnotherThreadRuns) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer's runtime thread is in every process: the check is off";
#endif
  std::promise<void> release;
  std::thread other([done = release.get_future()]() mutable { done.wait(); });
  LaunchSpec spec;
  spec.path = "/bin/true";
  spec.argv = {"/bin/true"};
  spec.entry.exec_fd = -1;  // were it launched, the exec would fail at once
  auto launched = LaunchGuest(spec);
  release.set_value();
  other.join();
  if (launched) {
    waitpid(launched->init_pid, nullptr, 0);
    FAIL() << "launched with two threads";
  }
  EXPECT_NE(launched.error().find("threads"), std::string::npos) << launched.error();
  EXPECT_NE(launched.error().find("after LaunchGuest"), std::string::npos) << launched.error();
}

}  // namespace
}  // namespace snare::sentry
