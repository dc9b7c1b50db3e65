#include "policy/evaluator.h"

#include <asm-generic/errno-base.h>
#include <asm-generic/errno.h>
#include <asm/prctl.h>
#include <asm/unistd_64.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include <initializer_list>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"
#include "policy/default_policy.h"

namespace snare::policy {
namespace {

using abi::kSyscallLimit;

constexpr uint64_t kStubStart = 0x7e0000000000;
constexpr uint64_t kStubEnd = 0x7e0040000000;
constexpr uint64_t kSharedStart = 0x7e0100000000;
constexpr uint64_t kSharedEnd = 0x7e0101800000;
constexpr uint64_t kMapPrivateAnon = MAP_PRIVATE | MAP_ANONYMOUS;

class SyscallPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override { Build(DefaultPolicy()); }

  void Build(const PolicyBuilder& builder) {
    auto table = builder.TryBuild();
    ASSERT_TRUE(table) << table.error();
    table_ = *table;
  }

  Verdict Decide(uint64_t nr, std::initializer_list<uint64_t> list = {}) {
    uint64_t args[6] = {};
    int i = 0;
    for (uint64_t a : list) args[i++] = a;
    return policy::Decide(Context(), nr, args);
  }

  PolicyContext Context() const { return {&table_, kRanges, 2, 1020, 1022}; }

  static constexpr ProtectedRange kRanges[2] = {{kStubStart, kStubEnd}, {kSharedStart, kSharedEnd}};
  PolicyTable table_;
};

// Matchers as functions: the failure message names the verdict.
::testing::AssertionResult IsPassthrough(const Verdict& v) {
  if (v.kind == Verdict::kPassthrough) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "kind " << int{v.kind} << " value " << v.value;
}

::testing::AssertionResult Returns(const Verdict& v, int64_t value) {
  if (v.kind == Verdict::kReturn && v.value == value) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "kind " << int{v.kind} << " value " << v.value << ", want kReturn " << value;
}

TEST_F(SyscallPolicyTest, UnknownNumbersFailWithEnosys) {
  EXPECT_TRUE(Returns(Decide(400), -ENOSYS));  // the gap between rseq and pidfd_send_signal
  EXPECT_TRUE(Returns(Decide(600), -ENOSYS));
  EXPECT_TRUE(Returns(Decide(kSyscallLimit), -ENOSYS));
  EXPECT_TRUE(Returns(Decide(0x40000000 | __NR_write), -ENOSYS));  // x32
  EXPECT_TRUE(Returns(Decide(~0ull), -ENOSYS));
  EXPECT_TRUE(Returns(Decide((1ull << 32) | __NR_getppid), -ENOSYS));
}

TEST_F(SyscallPolicyTest, Dispositions) {
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getppid)));
  EXPECT_TRUE(Returns(Decide(__NR_reboot), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_init_module), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_ptrace), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_io_uring_setup), -ENOSYS));
  EXPECT_EQ(Decide(__NR_uname, {0x1000}).kind, Verdict::kBroker);
}

TEST_F(SyscallPolicyTest, UserOverrides) {
  Build(DefaultPolicy().Kill(__NR_getppid));
  EXPECT_EQ(Decide(__NR_getppid).kind, Verdict::kKill);

  Build(DefaultPolicy().Deny(__NR_getppid, EACCES));
  EXPECT_TRUE(Returns(Decide(__NR_getppid), -EACCES));

  // The policy decides before any guard.
  Build(DefaultPolicy().Kill(__NR_read));
  EXPECT_EQ(Decide(__NR_read, {1021, 0, 0}).kind, Verdict::kKill);
}

TEST_F(SyscallPolicyTest, ArgumentRules) {
  // close(7) is denied, other fds pass; the low 32 bits decide, as the kernel reads an int.
  Build(DefaultPolicy().When(__NR_close, {ArgInt32Eq(0, 7)}, {Action::kDeny, EACCES}));
  EXPECT_TRUE(Returns(Decide(__NR_close, {7}), -EACCES));
  EXPECT_TRUE(Returns(Decide(__NR_close, {(1ull << 32) | 7}), -EACCES));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close, {8})));

  // Rules are OR'd; the checks inside one rule are AND'd.
  Build(DefaultPolicy()
            .When(__NR_kill, {ArgEq(0, 1), ArgEq(1, 9)}, {Action::kKill, 0})
            .When(__NR_kill, {ArgEq(0, 2000)}, {Action::kKill, 0})
            .When(__NR_getpriority, {ArgGt(1, 1000)}, {Action::kDeny, EPERM}));
  EXPECT_EQ(Decide(__NR_kill, {1, 9}).kind, Verdict::kKill);
  EXPECT_EQ(Decide(__NR_kill, {2000, 15}).kind, Verdict::kKill);
  EXPECT_TRUE(IsPassthrough(Decide(__NR_kill, {1, 15})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_kill, {500, 9})));
  EXPECT_TRUE(Returns(Decide(__NR_getpriority, {0, 1001}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getpriority, {0, 1000})));

  // A fallback other than passthrough, with a rule that lets some calls pass.
  Build(DefaultPolicy()
            .Deny(__NR_socket, EACCES)
            .When(__NR_socket, {ArgEq(0, 1 /* AF_UNIX */)}, {Action::kPassthrough, 0}));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_socket, {1, 1, 0})));
  EXPECT_TRUE(Returns(Decide(__NR_socket, {2, 1, 0}), -EACCES));
}

TEST_F(SyscallPolicyTest, TheFirstMatchingRuleDecides) {
  // "Allow only these pinned arguments, else kill" beside "allow unless arg1 == X".
  Build(DefaultPolicy()
            .Kill(__NR_execveat)
            .When(__NR_execveat, {ArgEq(0, 5), ArgEq(1, 0x1000), ArgEq(4, 0x1000)},
                  {Action::kPassthrough, 0})
            .When(__NR_kill, {ArgEq(1, 9)}, {Action::kDeny, EPERM})
            .When(__NR_kill, {ArgEq(0, 1)}, {Action::kKill, 0}));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_execveat, {5, 0x1000, 0, 0, 0x1000})));
  EXPECT_EQ(Decide(__NR_execveat, {5, 0x1000, 0, 0, 0}).kind, Verdict::kKill);
  EXPECT_EQ(Decide(__NR_execveat, {6, 0x1000, 0, 0, 0x1000}).kind, Verdict::kKill);
  EXPECT_TRUE(Returns(Decide(__NR_kill, {1, 9}), -EPERM));  // the first rule wins
  EXPECT_EQ(Decide(__NR_kill, {1, 15}).kind, Verdict::kKill);
  EXPECT_TRUE(IsPassthrough(Decide(__NR_kill, {2, 15})));

  // WhenFirst puts an exception before the rules so far.
  Build(DefaultPolicy()
            .When(__NR_kill, {ArgEq(1, 9)}, {Action::kDeny, EPERM})
            .WhenFirst(__NR_kill, {ArgEq(0, 0), ArgEq(1, 9)}, {Action::kPassthrough, 0}));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_kill, {0, 9})));
  EXPECT_TRUE(Returns(Decide(__NR_kill, {1, 9}), -EPERM));

  // Ranges: several checks on one argument, order comparisons in several rules.
  Build(DefaultPolicy()
            .When(__NR_close_range, {ArgGt(0, 0xffffffff)}, {Action::kKill, 0})
            .When(__NR_close_range, {ArgLe(0, 1022), ArgGe(1, 1020)}, {Action::kDeny, EBADF})
            .When(__NR_getpriority, {ArgGe(1, 10), ArgLt(1, 20)}, {Action::kDeny, EPERM}));
  EXPECT_EQ(Decide(__NR_close_range, {1ull << 32, 5}).kind, Verdict::kKill);
  EXPECT_TRUE(Returns(Decide(__NR_close_range, {3, 0xffffffff}), -EBADF));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close_range, {3, 1019})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close_range, {1023, 0xffffffff})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getpriority, {0, 9})));
  EXPECT_TRUE(Returns(Decide(__NR_getpriority, {0, 10}), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_getpriority, {0, 19}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getpriority, {0, 20})));
}

// kNotify: the kernel hands the call to the sentry, which decides there; a call that is
// evaluated anyway passes. kTrap is for platform filters. The guards still hold for both.
TEST_F(SyscallPolicyTest, NotifyAndTrapPass) {
  Build(DefaultPolicy()
            .Set(__NR_getppid, {Action::kNotify, 0})
            .Set(__NR_read, {Action::kNotify, 0})
            .Set(__NR_getpid, {Action::kTrap, 0})
            .When(__NR_close, {ArgEq(0, 7)}, {Action::kNotify, 0}));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getppid)));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_getpid)));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close, {7})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_read, {5, 0x1000, 10})));
  EXPECT_TRUE(Returns(Decide(__NR_read, {1021, 0x1000, 10}), -EBADF));
  EXPECT_STREQ(ActionName(Action::kNotify), "notify");
  EXPECT_STREQ(ActionName(Action::kTrap), "trap");
}

TEST_F(SyscallPolicyTest, ReservedFdsAreBadFds) {
  for (uint64_t fd : {1020, 1021, 1022}) {
    SCOPED_TRACE(fd);
    EXPECT_TRUE(Returns(Decide(__NR_read, {fd, 0x1000, 10}), -EBADF));
    EXPECT_TRUE(Returns(Decide(__NR_close, {fd}), -EBADF));
    EXPECT_TRUE(Returns(Decide(__NR_dup2, {3, fd}), -EBADF));
    EXPECT_TRUE(Returns(Decide(__NR_dup3, {3, fd, 0}), -EBADF));
    EXPECT_TRUE(Returns(Decide(__NR_fstat, {fd, 0x1000}), -EBADF));
    EXPECT_TRUE(Returns(Decide(__NR_openat, {fd, 0x1000, 0, 0}), -EBADF));
    // The kernel reads an int: the upper half is ignored.
    EXPECT_TRUE(Returns(Decide(__NR_close, {(1ull << 32) | fd}), -EBADF));
    // mmap's fd is its fifth argument.
    EXPECT_TRUE(Returns(Decide(__NR_mmap, {0, 4096, 1, 1, fd, 0}), -EBADF));
  }
  EXPECT_TRUE(IsPassthrough(Decide(__NR_read, {5, 0x1000, 10})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close, {1019})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_close, {1023})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_dup2, {3, 4})));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_openat, {static_cast<uint64_t>(-100), 0x1000, 0, 0})));
  // -1 as a 64-bit value (anonymous mmap).
  EXPECT_TRUE(IsPassthrough(Decide(__NR_mmap, {0, 4096, 3, kMapPrivateAnon, ~0ull, 0})));
}

TEST_F(SyscallPolicyTest, MmapFixedOverProtectedMemory) {
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {0x7e0000001000, 4096, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0}), -EPERM));
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {kSharedEnd - 4096, 4096, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
  // Starting below and reaching in.
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {kStubStart - 4096, 8192, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
  // MAP_FIXED_NOREPLACE and a bare hint land in an unmapped hole of a protected range.
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {0x7e0000001000, 4096, 3, MAP_FIXED_NOREPLACE | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
  EXPECT_TRUE(
      Returns(Decide(__NR_mmap, {0x7e0000001000, 4096, 3, kMapPrivateAnon, ~0ull, 0}), -EPERM));
  // No address: the kernel's choice.
  EXPECT_TRUE(IsPassthrough(Decide(__NR_mmap, {0, 4096, 3, kMapPrivateAnon, ~0ull, 0})));
  // Adjacent ranges are fine.
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mmap, {kStubStart - 4096, 4096, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0})));
  EXPECT_TRUE(
      IsPassthrough(Decide(__NR_mmap, {kStubEnd, 4096, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0})));
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mmap, {0x7e0080000000, 4096, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0})));
}

TEST_F(SyscallPolicyTest, MemoryCallsOverProtectedMemory) {
  for (uint64_t nr : {__NR_munmap, __NR_mprotect, __NR_madvise, __NR_pkey_mprotect}) {
    SCOPED_TRACE(nr);
    EXPECT_TRUE(Returns(Decide(nr, {0x7e0000001000, 4096, 0}), -EPERM));
    EXPECT_TRUE(Returns(Decide(nr, {kSharedStart, 4096, 0}), -EPERM));
    EXPECT_TRUE(Returns(Decide(nr, {kStubStart - 4096, 4097, 0}), -EPERM));
    EXPECT_TRUE(Returns(Decide(nr, {0x400000, 0x7f0000000000 - 0x400000, 0}), -EPERM));
    EXPECT_TRUE(IsPassthrough(Decide(nr, {kStubStart - 4096, 4096, 0})));
    EXPECT_TRUE(IsPassthrough(Decide(nr, {kStubEnd, 4096, 0})));
    EXPECT_TRUE(IsPassthrough(Decide(nr, {0x7e0000001000, 0, 0})));  // empty
    EXPECT_TRUE(IsPassthrough(Decide(nr, {0x400000, 4096, 0})));
  }
}

TEST_F(SyscallPolicyTest, WrappingRangesArePermissionErrors) {
  EXPECT_TRUE(Returns(Decide(__NR_munmap, {kStubStart - 0x1000, ~0ull}), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_mprotect, {0x1000, ~0ull, 7}), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_madvise, {kStubStart - 0x1000, ~0ull, 4}), -EPERM));
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {kStubStart - 0x1000, ~0ull, 3, MAP_FIXED | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
}

TEST_F(SyscallPolicyTest, Mremap) {
  // mremap(old, old_size, new_size, flags, new_address)
  EXPECT_TRUE(Returns(Decide(__NR_mremap, {0x7f0000000000, 4096, 4096,
                                           MREMAP_MAYMOVE | MREMAP_FIXED, 0x7e0000001000}),
                      -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_mremap, {0x7f0000000000, 4096, 8192,
                                           MREMAP_MAYMOVE | MREMAP_FIXED, kStubStart - 4096}),
                      -EPERM));
  EXPECT_TRUE(
      Returns(Decide(__NR_mremap, {0x7e0000001000, 4096, 8192, MREMAP_MAYMOVE, 0}), -EPERM));
  // Without MREMAP_FIXED the fifth argument is ignored.
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mremap, {0x7f0000000000, 4096, 8192, MREMAP_MAYMOVE, 0x7e0000001000})));
  EXPECT_TRUE(IsPassthrough(Decide(
      __NR_mremap, {0x7f0000000000, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, 0x7f0000100000})));
}

TEST_F(SyscallPolicyTest, ShmatInsideProtectedMemory) {
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, 0x7e0000001000, 0}), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, kSharedStart, SHM_REMAP}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_shmat, {7, 0, 0})));  // the kernel picks the address
  // SHM_REMAP maps over whatever is there for a segment size the policy cannot see: refused.
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, 0x7f0000000000, SHM_REMAP}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_shmat, {7, 0x7f0000000000, 0})));
}

// shmat(SHM_REMAP) just below the stub, with a segment of several pages, would map over
// the stub's text (where the filter lets syscalls through) on kernels without mseal. The
// policy cannot see the segment size, so SHM_REMAP is refused everywhere.
TEST_F(SyscallPolicyTest, ShmatRemapBelowProtectedMemory) {
  EXPECT_FALSE(IsPassthrough(Decide(__NR_shmat, {7, kStubStart - 0x1000, SHM_REMAP})));
}

TEST_F(SyscallPolicyTest, SigsysActionIsHidden) {
  Verdict v = Decide(__NR_rt_sigaction, {SIGSYS, 0x1000, 0x2000, 8});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_addr, 0x2000u);
  ASSERT_EQ(v.copyout_len, 32u);
  for (uint32_t i = 0; i < v.copyout_len; ++i) EXPECT_EQ(v.copyout[i], 0) << i;

  v = Decide(__NR_rt_sigaction, {SIGSYS, 0x1000, 0, 8});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_len, 0u);
  EXPECT_EQ(v.copyout_addr, 0u);

  EXPECT_TRUE(IsPassthrough(Decide(__NR_rt_sigaction, {SIGINT, 0x1000, 0x2000, 8})));
}

TEST_F(SyscallPolicyTest, GsBaseBelongsToTheStub) {
  EXPECT_TRUE(Returns(Decide(__NR_arch_prctl, {ARCH_SET_GS, 0x1000}), -EPERM));
  Verdict v = Decide(__NR_arch_prctl, {ARCH_GET_GS, 0x3000});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_addr, 0x3000u);
  ASSERT_EQ(v.copyout_len, 8u);
  for (uint32_t i = 0; i < v.copyout_len; ++i) EXPECT_EQ(v.copyout[i], 0) << i;
  EXPECT_TRUE(IsPassthrough(Decide(__NR_arch_prctl, {ARCH_SET_FS, 0x1000})));
}

}  // namespace
}  // namespace snare::policy

namespace snare::policy {
namespace {

// AlwaysPassesThrough may only name calls that Decide passes with any arguments: try each
// such call with argument values that would trip every guard (reserved fds, the protected
// ranges, SIGSYS, ARCH_SET_GS) and with random ones.
TEST_F(SyscallPolicyTest, AlwaysPassesThroughAgreesWithDecideForEveryArgument) {
  Build(DefaultPolicy());
  const uint64_t probes[] = {0,    1,          31,           ARCH_SET_GS, 1020,       1021,
                             1022, kStubStart, kSharedStart, 4096,        1ull << 40, ~0ull};
  uint64_t seed = 12345;
  int named = 0;
  for (uint64_t nr = 0; nr < kSyscallLimit + 2; ++nr) {
    if (!AlwaysPassesThrough(Context(), nr)) continue;
    ++named;
    for (int round = 0; round < 200; ++round) {
      uint64_t args[6];
      for (uint64_t& a : args) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        a = round < 100 ? probes[(seed >> 33) % std::size(probes)] : seed;
      }
      ASSERT_TRUE(IsPassthrough(policy::Decide(Context(), nr, args))) << "nr " << nr;
    }
  }
  EXPECT_GT(named, 20);  // getppid, getpid, gettid, clock_gettime, ...
  EXPECT_TRUE(AlwaysPassesThrough(Context(), __NR_getppid));
  // Guarded, fd-taking, ruled or refused calls are decided one request at a time.
  for (uint64_t nr : {__NR_mmap, __NR_rt_sigaction, __NR_arch_prctl, __NR_read, __NR_close}) {
    EXPECT_FALSE(AlwaysPassesThrough(Context(), nr)) << nr;
  }
  EXPECT_FALSE(AlwaysPassesThrough(Context(), kSyscallLimit));
  Build(PolicyBuilder(DefaultPolicy()).Deny(__NR_getppid, EPERM));
  EXPECT_FALSE(AlwaysPassesThrough(Context(), __NR_getppid));
  Build(PolicyBuilder(DefaultPolicy()).When(__NR_getppid, {ArgEq(0, 7)}, {Action::kDeny, EPERM}));
  EXPECT_FALSE(AlwaysPassesThrough(Context(), __NR_getppid));
}

}  // namespace
}  // namespace snare::policy
