#include "sentry/trace_sink.h"

#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace snare::sentry {

struct TraceSink::State {
  State(int fd, size_t capacity) : fd(fd), capacity(capacity) {}

  const int fd;
  const size_t capacity;
  std::mutex mu;
  std::condition_variable work;      // lines queued, or closing
  std::condition_variable progress;  // the writer finished a batch
  std::string queued;                // whole lines, each ending in '\n'
  uint64_t queued_lines = 0;
  uint64_t in_flight_lines = 0;  // taken by the writer, not written yet
  bool writer_waiting = false;
  bool closing = false;
  std::atomic<bool> abandoned{false};
  uint64_t written = 0;
  uint64_t dropped = 0;
  int error = 0;
};

namespace {

// Waits for room on an output someone made non-blocking; false once abandoned.
bool WaitWritable(int fd, const std::atomic<bool>& abandoned) {
  while (!abandoned.load(std::memory_order_relaxed)) {
    pollfd p = {fd, POLLOUT, 0};
    int r = poll(&p, 1, 100);
    if (r > 0 || (r < 0 && errno != EINTR)) return true;
  }
  return false;
}

// The end of the longest run of whole lines in data[0, size) of at most PIPE_BUF bytes, or
// of the first line when it alone is longer.
size_t ChunkEnd(const std::string& data, size_t from) {
  const size_t limit = std::min(data.size(), from + PIPE_BUF);
  size_t end = limit == data.size() ? limit : data.rfind('\n', limit - 1) + 1;
  if (end <= from) end = data.find('\n', from) + 1;
  return end;
}

}  // namespace

TraceSink::TraceSink(int fd, size_t capacity_bytes)
    : fd_(fd), state_(std::make_shared<State>(fd, capacity_bytes)) {
  writer_ = std::thread(WriterMain, state_);
}

TraceSink::~TraceSink() { Close(); }

void TraceSink::WriterMain(std::shared_ptr<State> s) {
  // Signals are the other threads' business; a reader gone is EPIPE here, not SIGPIPE.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  std::string batch;
  std::unique_lock<std::mutex> lock(s->mu);
  for (;;) {
    s->writer_waiting = true;
    s->work.wait(lock, [&] { return !s->queued.empty() || s->closing; });
    s->writer_waiting = false;
    if (s->queued.empty()) return;  // closing, all written
    batch.swap(s->queued);
    s->in_flight_lines = std::exchange(s->queued_lines, 0);
    lock.unlock();

    // Counted chunk by chunk: what reached the output is written, whatever happens next.
    int error = 0;
    for (size_t at = 0; at < batch.size();) {
      const size_t end = ChunkEnd(batch, at);
      ssize_t n = write(s->fd, batch.data() + at, end - at);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) {
        if (!WaitWritable(s->fd, s->abandoned)) return;
        continue;
      }
      if (n <= 0) {
        error = n < 0 ? errno : EIO;
        break;
      }
      const auto from = batch.begin() + static_cast<ptrdiff_t>(at);
      at += static_cast<size_t>(n);
      const uint64_t lines =
          static_cast<uint64_t>(std::count(from, batch.begin() + static_cast<ptrdiff_t>(at), '\n'));
      std::lock_guard<std::mutex> progress(s->mu);
      if (s->abandoned.load(std::memory_order_relaxed)) return;  // Close() counted the rest
      s->written += lines;
      s->in_flight_lines -= lines;
    }

    lock.lock();
    if (s->abandoned.load(std::memory_order_relaxed)) return;
    if (error) {
      s->error = error;
      s->dropped += s->in_flight_lines + s->queued_lines;
      s->queued.clear();
      s->queued_lines = 0;
    }
    s->in_flight_lines = 0;
    batch.clear();
    s->progress.notify_all();
    if (error) return;
    // While lines keep coming, collect them for a moment instead of being woken for each
    // one: producers only notify a writer that waits (writer_waiting), so this saves them a
    // futex wake per line, and the output a write per line.
    if (!s->closing && s->queued.size() < PIPE_BUF) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      lock.lock();
    }
  }
}

void TraceSink::Write(const char* line, size_t len) {
  State& s = *state_;
  const bool newline = len == 0 || line[len - 1] != '\n';
  bool wake;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.closing || s.error || s.queued.size() + len + newline > s.capacity) {
      ++s.dropped;
      return;
    }
    s.queued.append(line, len);
    if (newline) s.queued.push_back('\n');
    ++s.queued_lines;
    wake = s.writer_waiting;
  }
  if (wake) s.work.notify_one();
}

bool TraceSink::Flush(std::chrono::steady_clock::time_point deadline) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mu);
  s.work.notify_one();
  return s.progress.wait_until(
      lock, deadline, [&] { return s.error || (s.queued_lines == 0 && s.in_flight_lines == 0); });
}

TraceSink::Result TraceSink::Close() {
  if (closed_) return result_;
  closed_ = true;
  State& s = *state_;
  bool idle;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    s.closing = true;
    idle = s.error || (s.queued_lines == 0 && s.in_flight_lines == 0);
    if (!idle) {
      // Busy (blocked in write, most likely): leave it; what it holds counts as dropped.
      s.abandoned.store(true, std::memory_order_relaxed);
      s.dropped += s.queued_lines + s.in_flight_lines;
      s.queued.clear();
      s.queued_lines = s.in_flight_lines = 0;
    }
    result_ = {s.written, s.dropped, s.error, !idle};
  }
  s.work.notify_one();
  if (idle) {
    writer_.join();
  } else {
    writer_.detach();
  }
  return result_;
}

}  // namespace snare::sentry
