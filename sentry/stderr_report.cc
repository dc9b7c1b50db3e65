#include "sentry/stderr_report.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <string>

namespace snare::sentry {
namespace {

// One non-blocking write: n bytes, or -1 with errno (EAGAIN: no room).
ssize_t WriteSome(int fd, bool socket, const char* data, size_t len) {
  if (socket) return send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
  return write(fd, data, len);
}

}  // namespace

void RestartTerminalOutput(int fd) {
  if (isatty(fd) == 1) tcflow(fd, TCOON);
}

bool ReportOnStderr(std::string_view text, std::chrono::milliseconds patience) {
  // Once stderr made a report wait in vain, the next ones only try (they come right after).
  static std::atomic<bool> stuck{false};
  if (stuck.load(std::memory_order_relaxed)) patience = std::chrono::milliseconds(0);
  struct stat st;
  if (fstat(2, &st) != 0) return false;
  const bool socket = S_ISSOCK(st.st_mode);
  // A regular file never blocks, and its shared offset must advance for whoever writes after
  // snare (`{ snare ...; echo; } 2>log`): fd 2 itself; a socket too, with MSG_DONTWAIT.
  // Pipes and terminals: a description of snare's own, non-blocking.
  int fd = 2;
  bool guarded = false;  // fd 2 itself, maybe blocking: write only what poll says fits
  if (!S_ISREG(st.st_mode) && !socket) {
    fd = open("/proc/self/fd/2", O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      fd = 2;
      guarded = true;
    }
  }
  // A reader gone is EPIPE, not the end of snare: SIGPIPE stays blocked and pending, then
  // is taken back.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);

  // No room for `patience`: a terminal the guest stopped, perhaps. Restart it and wait once
  // more; anything else, give up.
  bool may_restart = isatty(fd) == 1;
  auto wait_for_room = [&] {
    pollfd p = {fd, POLLOUT, 0};
    if (poll(&p, 1, static_cast<int>(patience.count())) > 0) return true;
    if (!may_restart) return false;
    may_restart = false;
    RestartTerminalOutput(fd);
    return true;
  };
  size_t done = 0;
  while (done < text.size()) {
    if (guarded && !wait_for_room()) break;
    const size_t len = std::min(text.size() - done, guarded ? size_t{PIPE_BUF} : text.size());
    ssize_t n = WriteSome(fd, socket, text.data() + done, len);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN || !wait_for_room()) break;
  }
  if (done < text.size()) stuck.store(true, std::memory_order_relaxed);

  const timespec zero = {0, 0};
  while (sigtimedwait(&pipe_only, nullptr, &zero) == SIGPIPE) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (fd != 2) close(fd);
  return done == text.size();
}

}  // namespace snare::sentry
