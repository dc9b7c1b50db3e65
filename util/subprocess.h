// Runs a command in a child process with optional stdin, captures its stdout and stderr (or
// hands them over line by line), and reports its exit status the way a shell does (128+N
// when killed by signal N). A command that outlives its timeout has its process group
// killed. The one way snare, its benchmarks, its kernel lab and its tests start programs.
#ifndef SNARE_UTIL_SUBPROCESS_H_
#define SNARE_UTIL_SUBPROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace snare::util {

struct SubprocessOptions {
  // Written to the child's stdin, which is then closed; nullopt gives it /dev/null.
  std::optional<std::string> stdin_data;
  // Working directory of the child; empty keeps the caller's.
  std::string cwd;
  // "NAME=VALUE" entries added to (or replacing those in) the caller's environment.
  std::vector<std::string> extra_env;
  // After this the child's process group is killed with SIGKILL and the run fails; zero
  // waits as long as it takes.
  std::chrono::seconds timeout{120};
  // How long to keep reading stdout/stderr after the child exited, for output written by
  // processes it left behind; a pipe still open after that is reported, not waited for.
  std::chrono::milliseconds drain_after_exit{2000};
  // >= 0: the child (and everything it starts) runs on this CPU only.
  int cpu = -1;
  // stderr goes to the stdout pipe: one stream, in the order it was written.
  bool merge_stderr = false;
  // Called with each line of stdout (without the newline) as it arrives.
  std::function<void(const std::string&)> on_line;
  // False: stdout_data stays empty (for long, chatty commands read through on_line).
  bool keep_stdout = true;
  // Credentials of the child: before exec it drops its supplementary groups (setgroups(0))
  // and sets real, effective and saved ids (setresgid, then setresuid). A failure is a
  // start_error. Unset: the caller's credentials.
  std::optional<uid_t> uid;
  std::optional<gid_t> gid;
  // A terminal device path ("/dev/pts/N"): the child starts a new session (setsid instead of
  // a new process group; it is still its own group leader), opens this terminal, makes it
  // its controlling terminal (TIOCSCTTY) and uses it as stdin (stdin_data is ignored);
  // stdout and stderr stay the pipes. The terminal is opened before credentials change.
  std::string controlling_tty;
};

struct SubprocessResult {
  std::string stdout_data;
  std::string stderr_data;
  // Exit status as a shell reports it: the exit code, or 128+N for death by signal N;
  // -1 when the command could not be started.
  int status = -1;
  bool timed_out = false;
  // Some process still held stdout or stderr open drain_after_exit after the child exited.
  bool output_held_open = false;
  // Why the command could not be started (fork or exec failure); empty otherwise.
  std::string start_error;

  // A multi-line description (status, flags, both streams) for test failure messages.
  std::string Describe() const;
};

// A started child process; Wait() collects its output and status.
class Subprocess {
 public:
  Subprocess() = default;
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;
  // Kills the child's process group and reaps the child if Wait() was not called.
  ~Subprocess();

  // Starts argv (argv[0] is searched in $PATH when it has no '/') in a new process group
  // (a new session with options.controlling_tty), with the default disposition for every
  // signal, an empty signal mask and no fds but 0-2. Returns false and sets the result's
  // start_error when it cannot be started.
  bool Start(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

  pid_t pid() const { return pid_; }

  // Feeds stdin, reads stdout/stderr until the child exits (plus drain_after_exit), or kills
  // its process group at the timeout. Call at most once.
  SubprocessResult Wait();

  // True once Wait() (or a failed Start()) has reaped the child.
  bool reaped() const { return reaped_; }

 private:
  void CloseFds();
  void TakeStdout(const char* data, size_t n);
  bool Reap(int waitpid_options);

  pid_t pid_ = -1;
  bool reaped_ = false;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  int pidfd_ = -1;
  std::string partial_line_;
  SubprocessOptions options_;
  SubprocessResult result_;
};

// Starts argv and waits for it: Subprocess::Start followed by Wait.
SubprocessResult RunSubprocess(const std::vector<std::string>& argv,
                               const SubprocessOptions& options = {});

// A pseudo-terminal pair to run a child on (SubprocessOptions::controlling_tty =
// slave_path()). Holds the master and one slave fd (opened O_NOCTTY, so it is nobody's
// controlling terminal), so that input queued for the slave outlives the child.
class PseudoTerminal {
 public:
  PseudoTerminal() = default;
  PseudoTerminal(const PseudoTerminal&) = delete;
  PseudoTerminal& operator=(const PseudoTerminal&) = delete;
  ~PseudoTerminal();

  // Returns false and sets *error when no pair can be opened.
  bool Open(std::string* error);

  int master() const { return master_; }
  int slave() const { return slave_; }
  const std::string& slave_path() const { return slave_path_; }

 private:
  int master_ = -1;
  int slave_ = -1;
  std::string slave_path_;
};

// Quotes argv for a POSIX shell, for reproducer lines in failure messages.
std::string ShellQuote(const std::vector<std::string>& argv);

}  // namespace snare::util

#endif  // SNARE_UTIL_SUBPROCESS_H_
