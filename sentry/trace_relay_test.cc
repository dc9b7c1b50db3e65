#include "sentry/trace_relay.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "sentry/trace_sink.h"

namespace snare::sentry {
namespace {

using Clock = std::chrono::steady_clock;

// What the relay made of `guest_writes` (each one write(2) into the guest's end).
std::string Relay(const std::vector<std::string>& guest_writes) {
  int guest[2], out[2];
  EXPECT_EQ(pipe2(guest, O_CLOEXEC), 0);
  EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
  fcntl(out[1], F_SETPIPE_SZ, 1 << 20);
  TraceSink sink(out[1]);
  {
    TraceRelay relay(guest[0], &sink);
    for (const std::string& w : guest_writes) {
      EXPECT_EQ(write(guest[1], w.data(), w.size()), static_cast<ssize_t>(w.size()));
    }
    close(guest[1]);
    relay.Stop(Clock::now() + std::chrono::seconds(10));
  }
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(sink.Close().dropped, 0u);
  close(out[1]);
  std::string got;
  char buf[65536];
  for (ssize_t n; (n = read(out[0], buf, sizeof(buf))) > 0;) got.append(buf, n);
  close(out[0]);
  return got;
}

TEST(TraceRelayTest, WholeLinesPassThrough) {
  EXPECT_EQ(Relay({"[1] getppid() = 1\n", "[1] getpid() = 2\n[2] exit(0) = ?\n"}),
            "[1] getppid() = 1\n[1] getpid() = 2\n[2] exit(0) = ?\n");
}

TEST(TraceRelayTest, LinesSplitAcrossWritesAreJoined) {
  EXPECT_EQ(Relay({"[1] get", "ppid() = 1\n[1] g", "etpid() = 2\n"}),
            "[1] getppid() = 1\n[1] getpid() = 2\n");
}

// Garbage from the guest: a last line without a newline gets one, a huge "line" is cut.
TEST(TraceRelayTest, GarbageIsBoundedAndTerminated) {
  const std::string huge(TraceRelay::kMaxLine * 2 + 10, 'g');
  const std::string got = Relay({huge, "tail"});
  EXPECT_EQ(got, huge.substr(0, TraceRelay::kMaxLine) + "\n" +
                     huge.substr(0, TraceRelay::kMaxLine) + "\n" + std::string(10, 'g') + "tail\n");
  EXPECT_EQ(Relay({std::string(TraceRelay::kMaxLine, 'x') + "\n"}),
            std::string(TraceRelay::kMaxLine, 'x') + "\n");
}

// A guest process that keeps its end open (never gone) cannot hold up Stop.
TEST(TraceRelayTest, StopHonorsItsDeadline) {
  int guest[2], out[2];
  ASSERT_EQ(pipe2(guest, O_CLOEXEC), 0);
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  TraceSink sink(out[1]);
  TraceRelay relay(guest[0], &sink);
  ASSERT_EQ(write(guest[1], "[1] a() = 0\n", 12), 12);
  const auto start = Clock::now();
  relay.Stop(start + std::chrono::milliseconds(200));
  const auto took = Clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(200));
  EXPECT_LT(took, std::chrono::milliseconds(1000));
  EXPECT_TRUE(sink.Flush(Clock::now() + std::chrono::seconds(10)));
  EXPECT_EQ(sink.Close().written, 1u);
  close(guest[1]);
  close(out[1]);
  close(out[0]);
}

}  // namespace
}  // namespace snare::sentry
