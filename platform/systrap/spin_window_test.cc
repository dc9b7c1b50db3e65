#include "platform/systrap/spin_window.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace snare::systrap {
namespace {

constexpr uint64_t kUs = 1000;

TEST(SpinWindowTest, SpinsWithinTheWindowWhileAGuestThreadRuns) {
  SpinWindow w(2);
  const uint64_t t = 1'000'000 * kUs;
  w.Start(t);
  EXPECT_TRUE(w.ShouldSpin(t + 10 * kUs, 1));
  EXPECT_TRUE(w.ShouldSpin(t + SpinWindow::kInitialNs - 1, 1));
  EXPECT_FALSE(w.ShouldSpin(t + SpinWindow::kInitialNs, 1));  // the window is over
  EXPECT_FALSE(w.ShouldSpin(t + 10 * kUs, 0));  // every guest thread blocked or waiting
  EXPECT_FALSE(w.ShouldSpin(t + 10 * kUs, 2));  // the guest needs both CPUs
}

TEST(SpinWindowTest, AThreadRunningAnAnsweredCallCountsAsRunningForAWhile) {
  SpinWindow w(2);
  const uint64_t t = 1'000'000 * kUs;
  w.Start(t);
  // Its passthrough (an mmap, a read) will return and trap again soon: sleeping through it
  // would cost the next trap a wake-up.
  EXPECT_TRUE(w.ShouldSpin(t + 10 * kUs, 0, 1));
  // Past kAnsweredCallNs it is a call that blocks: the next trap is not near.
  EXPECT_FALSE(w.ShouldSpin(t + SpinWindow::kAnsweredCallNs, 0, 1));
}

TEST(SpinWindowTest, AThreadInACallLeavesTheSpinnerItsCpu) {
  SpinWindow w(2);
  const uint64_t t = 1'000'000 * kUs;
  w.Start(t);
  // gcc's driver waits in wait4 while cc1 computes: cc1's next call is the one to catch, and
  // the waiting driver needs no CPU (this pair made the sentry sleep at every gcc call).
  EXPECT_TRUE(w.ShouldSpin(t + 10 * kUs, 1, 1));
  // Two threads running their own code need both CPUs, whatever the others do.
  EXPECT_FALSE(w.ShouldSpin(t + 10 * kUs, 2, 1));
}

TEST(SpinWindowTest, AThreadLoadingAProgramTakesACpuButKeepsNoSpinner) {
  SpinWindow w(2);
  const uint64_t t = 1'000'000 * kUs;
  w.Start(t);
  // The guest's start (or an execve's new program): the exec and the loading change page
  // tables, which a spinning second vCPU slows; the first trap pays a wake-up instead.
  EXPECT_FALSE(w.ShouldSpin(t + 10 * kUs, 0, 0, 1));
  // It still takes a CPU: a loader and a running thread need both.
  EXPECT_TRUE(w.ShouldSpin(t + 10 * kUs, 1, 0, 0));
  EXPECT_FALSE(w.ShouldSpin(t + 10 * kUs, 1, 0, 1));
  SpinWindow three(3);
  three.Start(t);
  EXPECT_TRUE(three.ShouldSpin(t + 10 * kUs, 1, 0, 1));
  // An answered call beside a loader keeps the spinner as it would alone.
  EXPECT_TRUE(three.ShouldSpin(t + 10 * kUs, 0, 1, 1));
}

TEST(SpinWindowTest, OneCpuNeverSpins) {
  SpinWindow w(1);
  w.Start(5'000 * kUs);
  EXPECT_FALSE(w.ShouldSpin(5'001 * kUs, 1));
}

TEST(SpinWindowTest, ATrapAfterTheWindowDoublesItUpToTheMaximum) {
  SpinWindow w(4);
  uint64_t t = 1'000 * kUs;
  for (uint64_t expected : {400 * kUs, 800 * kUs, 1600 * kUs, 2000 * kUs}) {
    w.Start(t);
    t += 1000 * kUs;  // the guest works 1 ms between calls
    w.Woke(t);
    EXPECT_EQ(w.window_ns(), expected);
  }
  EXPECT_EQ(w.window_ns(), SpinWindow::kMaxNs);
  w.Start(t);
  EXPECT_TRUE(w.ShouldSpin(t + 1000 * kUs, 1));  // now it catches the next call
}

TEST(SpinWindowTest, PausesBeyondTheMaximumHalveItDownToTheMinimum) {
  SpinWindow w(4);
  uint64_t t = 1'000 * kUs;
  uint64_t expected = SpinWindow::kInitialNs;
  for (int i = 0; i < 10; ++i) {
    w.Start(t);
    t += 20'000 * kUs;  // the periodic wake, nothing trapped
    w.Woke(t);
    expected = std::max(expected / 2, SpinWindow::kMinNs);
    EXPECT_EQ(w.window_ns(), expected);
  }
  EXPECT_EQ(w.window_ns(), SpinWindow::kMinNs);
}

}  // namespace
}  // namespace snare::systrap
