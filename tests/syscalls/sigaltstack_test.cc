// sigaltstack(2): the stack that was set reads back, an SA_ONSTACK handler runs on it, and
// a signal that interrupts such a handler nests below it there.
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

// Disables the alternate signal stack when it goes out of scope.
class ScopedAltStack {
 public:
  explicit ScopedAltStack(size_t size) : size_(size) {
    void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(mem, MAP_FAILED) << strerror(errno);
    base_ = mem == MAP_FAILED ? nullptr : static_cast<char*>(mem);
    // Start from an explicitly disabled stack: the kernel's state after sigaltstack(
    // SS_DISABLE) differs from a never-configured one (whether the parent process had
    // disabled one is inherited), and the outcome must not depend on the environment.
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    EXPECT_EQ(sigaltstack(&off, &old_), 0) << strerror(errno);
    stack_t ss = {};
    ss.ss_sp = base_;
    ss.ss_size = size_;
    ss.ss_flags = 0;
    EXPECT_EQ(sigaltstack(&ss, nullptr), 0) << strerror(errno);
  }
  ScopedAltStack(const ScopedAltStack&) = delete;
  ScopedAltStack& operator=(const ScopedAltStack&) = delete;
  ~ScopedAltStack() {
    sigaltstack(&old_, nullptr);
    if (base_) munmap(base_, size_);
  }

  char* base() const { return base_; }
  size_t size() const { return size_; }

 private:
  char* base_ = nullptr;
  size_t size_;
  stack_t old_ = {};
};

constexpr size_t kAltStackSize = 256 * 1024;

TEST(SigaltstackTest, QueryReturnsTheStackThatWasSet) {
  ScopedAltStack alt(kAltStackSize);
  stack_t now = {};
  ASSERT_EQ(sigaltstack(nullptr, &now), 0) << strerror(errno);
  EXPECT_EQ(now.ss_sp, alt.base());
  EXPECT_EQ(now.ss_size, alt.size());
  EXPECT_EQ(now.ss_flags, 0) << "not SS_ONSTACK or SS_DISABLE outside a handler";
}

std::atomic<uintptr_t> g_handler_sp{0};
std::atomic<int> g_handler_ss_flags{0};

void RecordStackPointer(int) {
  volatile char local = 0;
  g_handler_sp.store(reinterpret_cast<uintptr_t>(&local));
  stack_t now = {};
  g_handler_ss_flags.store(sigaltstack(nullptr, &now) == 0 ? now.ss_flags : -1);
}

TEST(SigaltstackTest, SaOnstackHandlerRunsOnTheAltStack) {
  ScopedAltStack alt(kAltStackSize);
  ScopedSigaction action(SIGUSR1, RecordStackPointer, SA_ONSTACK);
  g_handler_sp.store(0);
  ASSERT_EQ(raise(SIGUSR1), 0);
  uintptr_t sp = g_handler_sp.load();
  uintptr_t lo = reinterpret_cast<uintptr_t>(alt.base());
  EXPECT_GE(sp, lo);
  EXPECT_LT(sp, lo + alt.size());
  EXPECT_EQ(g_handler_ss_flags.load(), SS_ONSTACK);
}

constexpr int kCanaryWords = 256;
std::atomic<bool> g_in_outer{false};
std::atomic<int> g_nested{0};
std::atomic<int> g_clobbered{0};
sigjmp_buf g_leave_outer;

// The interrupting handler: it fills as much stack as the outer handler's canary takes, so
// that a frame started again at the alternate stack's top lands on that canary.
void FillStack(int) {
  volatile uint64_t scratch[kCanaryWords];
  for (int i = 0; i < kCanaryWords; ++i) scratch[i] = 0;
  if (g_in_outer.load()) g_nested.fetch_add(1);
}

// The outer handler: system calls for 200 ms while the timer fires, its canary checked
// after each. A clobbered frame cannot be returned through, so it leaves by siglongjmp.
void CallWhileInterrupted(int) {
  volatile uint64_t canary[kCanaryWords];
  for (int i = 0; i < kCanaryWords; ++i) canary[i] = 0x5a5a5a5a00000000ull + i;
  g_in_outer.store(true);
  const int64_t end = MonotonicNs() + 200'000'000;
  while (MonotonicNs() < end) {
    syscall(SYS_getppid);
    for (int i = 0; i < kCanaryWords; ++i) {
      if (canary[i] != 0x5a5a5a5a00000000ull + i) {
        g_in_outer.store(false);
        g_clobbered.store(1);
        siglongjmp(g_leave_outer, 1);
      }
    }
  }
  g_in_outer.store(false);
}

// A signal arriving while an SA_ONSTACK handler is inside a system call nests below that
// handler on the alternate stack; it never starts again at the stack's top, over the
// handler's live frame (the kernel starts there only when the interrupted code is off the
// alternate stack, so an interposer must not make a call on a stack of its own with signals
// open while the guest is on it).
TEST(SigaltstackTest, SignalInterruptingAnOnstackHandlerNestsBelowIt) {
  ScopedAltStack alt(kAltStackSize);
  ScopedSigaction inner(SIGUSR2, FillStack, SA_ONSTACK);
  ScopedSigaction outer(SIGUSR1, CallWhileInterrupted, SA_ONSTACK);
  g_nested.store(0);
  g_clobbered.store(0);
  if (sigsetjmp(g_leave_outer, 1) == 0) {
    ScopedThreadTimer timer(SIGUSR2, 20'000);
    ASSERT_EQ(raise(SIGUSR1), 0);
  }
  EXPECT_EQ(g_clobbered.load(), 0)
      << "a signal taken during a system call in an SA_ONSTACK handler wrote over that "
         "handler's frame at the top of the alternate stack";
  EXPECT_GT(g_nested.load(), 0) << "the timer never interrupted the handler";
}

}  // namespace
}  // namespace snare_syscalls
