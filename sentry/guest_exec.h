// What runs in a guest process between fork and the platform's entry program: argv built
// before fork (nothing allocates after it), snare's fds placed, the program opened, the
// entry exec'd; and the wait loop of the processes that stand between the sentry and the
// guest. Post-fork code: async-signal-safe calls only.
#ifndef SNARE_SENTRY_GUEST_EXEC_H_
#define SNARE_SENTRY_GUEST_EXEC_H_

#include <sys/types.h>

#include <vector>

#include "sentry/guest_launcher.h"

namespace snare::sentry {

class GuestExec {
 public:
  explicit GuestExec(const LaunchSpec& spec);
  GuestExec(const GuestExec&) = delete;
  GuestExec& operator=(const GuestExec&) = delete;

  // Places the entry's fds (the sentry's own fds are close-on-exec).
  void PlaceFds() const;
  // Closes every fd but 0-2, the entry's (placed already) and `keep`: what the invoker left
  // open (a directory outside the sandbox, a socket) must not carry past its walls.
  void CloseInheritedFds(const std::vector<int>& keep) const;
  // Opens the program (127 when it is missing, 126 otherwise).
  void OpenProgram();
  // Execs the entry with the opened program.
  [[noreturn]] void Exec();
  [[noreturn]] void OpenAndExec() {
    OpenProgram();
    Exec();
  }

 private:
  const LaunchSpec& spec_;
  std::vector<const char*> argv_;
  char fd_str_[16] = {};
};

// "snare: WHAT: DETAIL" on stderr (async-signal-safe).
void WriteStderr(const char* what, const char* detail);
// WriteStderr and _exit(status).
[[noreturn]] void Die(const char* what, const char* detail, int status = 127);

// Forwards SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 (and, with `interrupts`, SIGINT and SIGQUIT) to
// `target` (negative: a process group) and waits for `child`; returns its status as a shell
// reports it.
int ForwardSignalsAndWait(pid_t child, pid_t target, bool interrupts);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_GUEST_EXEC_H_
