// sigaltstack(2): the stack that was set reads back, and an SA_ONSTACK handler runs on it.
#include <signal.h>
#include <sys/mman.h>

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

}  // namespace
}  // namespace snare_syscalls
