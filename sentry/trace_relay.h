// inproc --trace: the stub formats the trace lines inside the guest, so they are the guest's
// word (advisory). It writes them into a pipe (the guest's kTraceFd); the relay reads whole
// lines from the other end and queues them on the TraceSink. A guest can write garbage into
// its end, but cannot block, truncate or redirect snare's output: it never holds the output's
// fd, and the relay never waits for the guest.
#ifndef SNARE_SENTRY_TRACE_RELAY_H_
#define SNARE_SENTRY_TRACE_RELAY_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>

#include "sentry/trace_sink.h"

namespace snare::sentry {

class TraceRelay {
 public:
  // Longer "lines" are cut into pieces of this size (each ended with a newline).
  static constexpr size_t kMaxLine = 4096;

  // Takes ownership of read_fd (the sentry's end of the pipe).
  TraceRelay(int read_fd, TraceSink* sink);
  ~TraceRelay();  // Stop(now)
  TraceRelay(const TraceRelay&) = delete;
  TraceRelay& operator=(const TraceRelay&) = delete;

  // Relays until every writer has closed the pipe (the guest is gone) or `deadline`, then
  // stops; a last line without a newline gets one.
  void Stop(std::chrono::steady_clock::time_point deadline);

 private:
  void Main();

  int read_fd_;
  int stop_fd_;  // an eventfd: Stop()'s signal to the thread
  TraceSink* sink_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> eof_{false};
  std::thread thread_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TRACE_RELAY_H_
