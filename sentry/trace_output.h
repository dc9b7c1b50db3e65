// Where --trace lines are written, opened so that the guest cannot take them away.
//
// stderr (no PATH): a new open file description of snare's stderr (/proc/self/fd/2): the
//   guest shares the old one and may set O_NONBLOCK on it, which does not reach a new one
//   of a pipe, FIFO or terminal. Where reopening is impossible (a socket) it is a dup, and
//   the sink waits out EAGAIN. A regular file is dup'ed on purpose: the shared offset keeps
//   the guest's lines and snare's interleaved instead of overwriting each other.
// PATH: written while it has no name at all (O_TMPFILE in PATH's directory) and put in place
//   of PATH when the run ends (util::PendingFile). While the guest runs there is no name by
//   which it could truncate the trace (O_TRUNC, ftruncate) or swap it, and a symlink it
//   plants at PATH is replaced, not followed. The cost: the trace appears only at the end
//   (`tail -f` shows nothing), and a snare killed by SIGKILL leaves none; a run that ends
//   any other way (the guest's exit, a signal forwarded to it) publishes it. Where the
//   filesystem has no O_TMPFILE the file has a random visible name until then. A trace
//   that lost lines to a failed write (a full disk), or a run that never finished it, is
//   not put at PATH: a file there is always the whole trace.
// Special files: an existing FIFO at PATH, and paths under /dev and /proc (the user's own
//   descriptors and devices: /dev/stderr, /dev/fd/N, bash's >(...)), are opened as they are
//   (never created or truncated); /dev/std{out,err}, /dev/fd/N and /proc/self/fd/N are
//   reopened like stderr.
#ifndef SNARE_SENTRY_TRACE_OUTPUT_H_
#define SNARE_SENTRY_TRACE_OUTPUT_H_

#include <expected>
#include <optional>
#include <string>

#include "util/pending_file.h"

namespace snare::sentry {

class TraceOutput {
 public:
  // path empty: stderr.
  static std::expected<TraceOutput, std::string> Open(const std::string& path);
  TraceOutput(TraceOutput&& other) noexcept;
  TraceOutput& operator=(TraceOutput&&) = delete;
  ~TraceOutput();

  int fd() const { return fd_; }
  bool is_terminal() const { return terminal_; }

  // Publishes a trace file, or, when writing it failed with `write_error` (an errno, 0 for
  // none), removes it. `in_use`: a writer thread may still write to the fd, so it is never
  // closed. Returns what went wrong, for the user (with where the trace is instead).
  std::expected<void, std::string> Finish(bool in_use, int write_error = 0);

 private:
  TraceOutput(int fd, std::optional<util::PendingFile> file);

  int fd_ = -1;  // owned unless file_ holds it
  std::optional<util::PendingFile> file_;
  bool terminal_ = false;
  bool finished_ = false;
};

// A description of fd's open file that is snare's alone where the kernel can make one
// (/proc/self/fd/N: pipes, FIFOs, terminals); a dup for sockets and regular files (see
// above). Close-on-exec, blocking unless `nonblocking`. -1 with errno on failure.
int OwnDescriptionOf(int fd, bool nonblocking);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TRACE_OUTPUT_H_
