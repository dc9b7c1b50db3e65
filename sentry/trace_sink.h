// Where the sentry's --trace lines go: a bounded queue that a writer thread of its own drains
// into the output fd. Whoever queues a line (the dispatcher, the inproc relay) never waits
// for the output: a reader that is slow, stopped (TCOOFF on a terminal) or gone costs lines,
// which are counted, never a stall of the guest or of snare's exit.
//
// The writer writes whole lines, at most PIPE_BUF bytes per write(2), so that on a pipe or a
// terminal shared with the guest's own stderr no line is split by the guest's output. An
// output the guest made non-blocking (a shared socket) is waited for with poll, not dropped.
#ifndef SNARE_SENTRY_TRACE_SINK_H_
#define SNARE_SENTRY_TRACE_SINK_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>

namespace snare::sentry {

class TraceSink {
 public:
  static constexpr size_t kDefaultCapacity = 4 << 20;  // queued bytes

  struct Result {
    uint64_t written = 0;
    uint64_t dropped = 0;    // queue full, output failed, or not written by Close()
    int error = 0;           // the errno that ended the output, 0 if none
    bool abandoned = false;  // the writer was still busy: the fd may still be in use
  };

  // Does not own fd; the caller keeps it open while the writer may use it (after an
  // abandoning Close(), for the rest of the process).
  explicit TraceSink(int fd, size_t capacity_bytes = kDefaultCapacity);
  ~TraceSink();  // Close() unless closed
  TraceSink(const TraceSink&) = delete;
  TraceSink& operator=(const TraceSink&) = delete;

  // Queues one line (a newline is added when it lacks one), or drops it, counted, when the
  // queue is full or the output failed. Thread-safe; never blocks on the output.
  void Write(const char* line, size_t len);
  // Waits until every line queued so far is written (or dropped), at most until deadline;
  // true when it was.
  bool Flush(std::chrono::steady_clock::time_point deadline);
  // Stops taking lines and stops the writer: joined when idle, otherwise left behind (blocked
  // in write(2); it exits with the process) with what it has not written counted as
  // dropped. Flush first to give it time. Later calls return the same result.
  Result Close();

  int fd() const { return fd_; }

 private:
  struct State;
  static void WriterMain(std::shared_ptr<State> state);

  int fd_;
  std::shared_ptr<State> state_;  // shared with the writer thread, which may outlive this
  std::thread writer_;
  bool closed_ = false;
  Result result_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TRACE_SINK_H_
