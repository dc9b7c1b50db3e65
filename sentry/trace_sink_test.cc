#include "sentry/trace_sink.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::string Line(int i) { return "[1] getppid() = " + std::to_string(i) + "\n"; }

class Pipe {
 public:
  Pipe() {
    int fds[2];
    EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
    read_ = fds[0];
    write_ = fds[1];
  }
  ~Pipe() {
    CloseRead();
    // The write end stays open when a test abandoned a writer on it (the sink's contract).
  }
  int read_fd() const { return read_; }
  int write_fd() const { return write_; }
  void CloseRead() {
    if (read_ >= 0) close(read_);
    read_ = -1;
  }

 private:
  int read_ = -1, write_ = -1;
};

// Everything read from fd until end of file, pausing `pause` after each read.
std::string ReadAll(int fd, milliseconds pause = milliseconds(0)) {
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<size_t>(n));
    if (pause.count()) std::this_thread::sleep_for(pause);
  }
  return out;
}

TEST(TraceSinkTest, NothingIsLostWhenTheReaderKeepsUp) {
  Pipe pipe;
  std::string got;
  std::thread reader([&] { got = ReadAll(pipe.read_fd()); });
  std::string want;
  constexpr int kLines = 100000;
  {
    TraceSink sink(pipe.write_fd());
    for (int i = 0; i < kLines; ++i) {
      const std::string line = Line(i);
      want += line;
      sink.Write(line.data(), line.size());
    }
    EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(20)));
    TraceSink::Result r = sink.Close();
    EXPECT_EQ(r.written, uint64_t{kLines});
    EXPECT_EQ(r.dropped, 0u);
    EXPECT_EQ(r.error, 0);
    EXPECT_FALSE(r.abandoned);
  }
  close(pipe.write_fd());
  reader.join();
  EXPECT_TRUE(got == want) << "got " << got.size() << " bytes of " << want.size();
}

// A slow reader on a small pipe: lines queue up (the capacity is large enough here), nothing
// is dropped, and the guest-facing side never waits.
TEST(TraceSinkTest, SlowReaderLosesNothingWithinCapacity) {
  Pipe pipe;
  fcntl(pipe.write_fd(), F_SETPIPE_SZ, 4096);
  std::string got;
  std::thread reader([&] { got = ReadAll(pipe.read_fd(), milliseconds(1)); });
  std::string want;
  TraceSink sink(pipe.write_fd());
  const auto t0 = Clock::now();
  for (int i = 0; i < 5000; ++i) {
    const std::string line = Line(i);
    want += line;
    sink.Write(line.data(), line.size());
  }
  EXPECT_LT(Clock::now() - t0, milliseconds(500)) << "Write waited for the reader";
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(30)));
  EXPECT_EQ(sink.Close().dropped, 0u);
  close(pipe.write_fd());
  reader.join();
  EXPECT_TRUE(got == want) << "got " << got.size() << " bytes of " << want.size();
}

// Nobody reads (a stopped terminal): Write never blocks, drops are counted, Flush gives up
// at its deadline and Close leaves the blocked writer behind.
TEST(TraceSinkTest, DropsAreCountedWhenTheOutputBlocks) {
  Pipe pipe;
  fcntl(pipe.write_fd(), F_SETPIPE_SZ, 4096);
  constexpr int kLines = 100000;
  TraceSink sink(pipe.write_fd(), 64 * 1024);
  const auto t0 = Clock::now();
  for (int i = 0; i < kLines; ++i) {
    const std::string line = Line(i);
    sink.Write(line.data(), line.size());
  }
  EXPECT_LT(Clock::now() - t0, milliseconds(1000)) << "Write waited for the output";

  const auto flush_start = Clock::now();
  EXPECT_FALSE(sink.Flush(flush_start + milliseconds(300)));
  const auto flush_took = Clock::now() - flush_start;
  EXPECT_GE(flush_took, milliseconds(300));
  EXPECT_LT(flush_took, milliseconds(1500)) << "Flush overran its deadline";

  const auto close_start = Clock::now();
  TraceSink::Result r = sink.Close();
  EXPECT_LT(Clock::now() - close_start, milliseconds(200)) << "Close waited for the writer";
  EXPECT_TRUE(r.abandoned);
  EXPECT_GT(r.dropped, 0u);
  EXPECT_EQ(r.written + r.dropped, uint64_t{kLines});
  // What reached the pipe was counted as written, the rest as dropped; reading lets the
  // abandoned writer finish the one write it was blocked in (<= PIPE_BUF bytes), no more.
  fcntl(pipe.read_fd(), F_SETFL, O_NONBLOCK);
  std::string got = ReadAll(pipe.read_fd());
  std::this_thread::sleep_for(milliseconds(100));
  got += ReadAll(pipe.read_fd());
  size_t lines = 0;
  for (char c : got) lines += c == '\n';
  EXPECT_GE(lines, r.written);
  EXPECT_LE(lines, r.written + 4096 / Line(0).size());
  EXPECT_EQ(sink.Close().dropped, r.dropped) << "Close is not idempotent";
}

TEST(TraceSinkTest, FlushDeadlineIsHonoredWithAnIdleWriter) {
  Pipe pipe;
  TraceSink sink(pipe.write_fd());
  const auto start = Clock::now();
  EXPECT_TRUE(sink.Flush(start + std::chrono::seconds(10)));
  EXPECT_LT(Clock::now() - start, milliseconds(100)) << "an empty queue should not wait";
  EXPECT_FALSE(sink.Close().abandoned);
}

// The guest set O_NONBLOCK on a description it shares with snare: EAGAIN means wait.
TEST(TraceSinkTest, NonBlockingOutputWaitsInsteadOfDropping) {
  Pipe pipe;
  fcntl(pipe.write_fd(), F_SETPIPE_SZ, 4096);
  fcntl(pipe.write_fd(), F_SETFL, O_NONBLOCK);
  std::string got;
  std::thread reader([&] { got = ReadAll(pipe.read_fd(), milliseconds(1)); });
  std::string want;
  TraceSink sink(pipe.write_fd());
  for (int i = 0; i < 3000; ++i) {
    const std::string line = Line(i);
    want += line;
    sink.Write(line.data(), line.size());
  }
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(30)));
  TraceSink::Result r = sink.Close();
  EXPECT_EQ(r.dropped, 0u);
  EXPECT_EQ(r.error, 0);
  close(pipe.write_fd());
  reader.join();
  EXPECT_TRUE(got == want) << "got " << got.size() << " bytes of " << want.size();
}

// The reader went away: EPIPE (not SIGPIPE) ends the output; later lines are dropped.
TEST(TraceSinkTest, AGoneReaderEndsTheOutput) {
  Pipe pipe;
  pipe.CloseRead();
  TraceSink sink(pipe.write_fd());
  sink.Write("a\n", 2);
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(10)));
  sink.Write("b\n", 2);
  TraceSink::Result r = sink.Close();
  EXPECT_EQ(r.error, EPIPE);
  EXPECT_EQ(r.written, 0u);
  EXPECT_EQ(r.dropped, 2u);
  EXPECT_FALSE(r.abandoned);
  close(pipe.write_fd());
}

TEST(TraceSinkTest, LinesAreWholeAndNewlineTerminated) {
  Pipe pipe;
  TraceSink sink(pipe.write_fd());
  sink.Write("no newline", 10);
  sink.Write("", 0);
  const std::string long_line(3 * 4096, 'x');
  sink.Write(long_line.data(), long_line.size());
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(sink.Close().written, 3u);
  close(pipe.write_fd());
  EXPECT_EQ(ReadAll(pipe.read_fd()), "no newline\n\n" + long_line + "\n");
}

TEST(TraceSinkTest, WritesAfterCloseAreDropped) {
  Pipe pipe;
  TraceSink sink(pipe.write_fd());
  sink.Close();
  sink.Write("late\n", 5);
  EXPECT_EQ(sink.Close().dropped, 0u);  // the result is Close()'s, taken before
  close(pipe.write_fd());
  EXPECT_EQ(ReadAll(pipe.read_fd()), "");
}

}  // namespace
}  // namespace snare::sentry
