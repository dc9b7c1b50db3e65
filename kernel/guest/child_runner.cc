#include "kernel/guest/child_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::lab {

CheckResult RunInChild(const std::function<CheckResult()>& body, unsigned timeout_s) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {false, std::string("pipe: ") + strerror(errno)};
  pid_t pid = fork();
  if (pid < 0) {
    int saved = errno;
    close(fds[0]);
    close(fds[1]);
    return {false, std::string("fork: ") + strerror(saved)};
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(timeout_s);
    CheckResult result = body();
    std::string message = (result.pass ? "P" : "F") + result.detail;
    std::string_view rest = message;
    while (!rest.empty()) {
      ssize_t n = write(fds[1], rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      rest.remove_prefix(static_cast<size_t>(n));
    }
    _exit(0);
  }
  close(fds[1]);
  std::string message;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::string why =
        "child killed by signal " + std::to_string(sig) + " (" + strsignal(sig) +
        (sig == SIGALRM ? ", timed out after " + std::to_string(timeout_s) + " s" : "") + ")";
    if (message.size() > 1) why += "; it had reported: " + message.substr(1);
    return {false, why};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return {false, "child exited with status " + std::to_string(WEXITSTATUS(status))};
  }
  if (message.empty()) return {false, "child reported nothing"};
  return {message[0] == 'P', message.substr(1)};
}

}  // namespace snare::lab
