#include "sentry/time_limit.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>

namespace snare::sentry {

TimeLimit::TimeLimit(double seconds, pid_t init_pid) {
  if (seconds <= 0) return;
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, init_pid, 0));
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
  watch_ = std::thread([this, deadline, init_pid] {
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_until(lock, deadline, [this] { return stopped_; })) return;
    expired_ = true;
    // Kernels before 5.3 have no pidfds: by pid, then.
    if (pidfd_ >= 0) {
      syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
    } else {
      kill(init_pid, SIGKILL);
    }
  });
}

TimeLimit::~TimeLimit() {
  Stop();
  if (pidfd_ >= 0) close(pidfd_);
}

void TimeLimit::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  cv_.notify_all();
  if (watch_.joinable()) watch_.join();
}

bool TimeLimit::expired() {
  std::lock_guard<std::mutex> lock(mu_);
  return expired_;
}

}  // namespace snare::sentry
