#include "kernel/lab/command_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>

#include "sentry/monotonic_clock.h"

namespace snare::lab {
namespace {}  // namespace

StreamResult RunStreaming(const std::vector<std::string>& argv, const std::string& cwd,
                          double timeout_s, const std::function<void(const std::string&)>& line) {
  StreamResult result;
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    result.tail = std::string("pipe: ") + strerror(errno);
    return result;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    result.tail = std::string("fork: ") + strerror(errno);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out[1], 1);
    dup2(out[1], 2);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  std::deque<std::string> tail;
  std::string pending;
  const double deadline = timeout_s > 0 ? MonotonicSeconds() + timeout_s : 0;
  auto emit = [&](const std::string& l) {
    tail.push_back(l);
    if (tail.size() > 30) tail.pop_front();
    if (line) line(l);
  };
  for (;;) {
    int wait_ms = -1;
    if (deadline) {
      double left = deadline - MonotonicSeconds();
      if (left <= 0) {
        result.timed_out = true;
        kill(-pid, SIGKILL);
        break;
      }
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    pollfd p = {out[0], POLLIN, 0};
    int r = poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    char buf[8192];
    ssize_t n = read(out[0], buf, sizeof(buf));
    if (n <= 0) break;
    pending.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
      std::string l = pending.substr(0, nl);
      if (!l.empty() && l.back() == '\r') l.pop_back();
      emit(l);
      pending.erase(0, nl + 1);
    }
  }
  if (!pending.empty()) emit(pending);
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (result.timed_out) kill(-pid, SIGKILL);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  for (const auto& l : tail) result.tail += l + "\n";
  return result;
}

}  // namespace snare::lab
