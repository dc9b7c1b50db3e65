#include "sentry/trace_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

namespace snare::sentry {

TraceRelay::TraceRelay(int read_fd, TraceSink* sink)
    : read_fd_(read_fd), stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), sink_(sink) {
  fcntl(read_fd_, F_SETFL, fcntl(read_fd_, F_GETFL) | O_NONBLOCK);
  thread_ = std::thread([this] { Main(); });
}

TraceRelay::~TraceRelay() {
  Stop(std::chrono::steady_clock::now());
  close(read_fd_);
  if (stop_fd_ >= 0) close(stop_fd_);
}

void TraceRelay::Main() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::string partial;
  char buf[65536];
  while (!stop_.load(std::memory_order_acquire)) {
    pollfd fds[2] = {{read_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (poll(fds, stop_fd_ >= 0 ? 2 : 1, stop_fd_ >= 0 ? -1 : 100) < 0 && errno != EINTR) break;
    if (fds[1].revents) break;
    ssize_t n = read(read_fd_, buf, sizeof(buf));
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;  // end of file: every guest process is gone
    for (ssize_t i = 0; i < n;) {
      const char* start = buf + i;
      const char* nl = static_cast<const char*>(memchr(start, '\n', static_cast<size_t>(n - i)));
      const size_t len = nl ? static_cast<size_t>(nl - start) + 1 : static_cast<size_t>(n - i);
      partial.append(start, len);
      i += static_cast<ssize_t>(len);
      // Cut at kMaxLine bytes of text (a newline after them is the line's own).
      while (partial.size() > kMaxLine + (partial.back() == '\n')) {
        sink_->Write(partial.data(), kMaxLine);
        partial.erase(0, kMaxLine);
      }
      if (!partial.empty() && partial.back() == '\n') {
        sink_->Write(partial.data(), partial.size());
        partial.clear();
      }
    }
  }
  if (!partial.empty()) sink_->Write(partial.data(), partial.size());
  eof_.store(true, std::memory_order_release);
}

void TraceRelay::Stop(std::chrono::steady_clock::time_point deadline) {
  if (!thread_.joinable()) return;
  while (!eof_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop_.store(true, std::memory_order_release);
  if (stop_fd_ >= 0) {
    const uint64_t one = 1;
    (void)!write(stop_fd_, &one, sizeof(one));
  }
  // The thread only ever waits in poll(2): it notices stop_fd_ at once (or within 100 ms).
  thread_.join();
}

}  // namespace snare::sentry
