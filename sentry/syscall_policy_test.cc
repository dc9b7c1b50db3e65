#include "sentry/syscall_policy.h"

#include <asm-generic/errno-base.h>
#include <asm-generic/errno.h>
#include <asm/unistd_64.h>
#include <stdint.h>

#include <initializer_list>

#include "gtest/gtest.h"
#include "sentry/syscall_table.h"

namespace snare {
namespace {

constexpr uint64_t kStubStart = 0x7e0000000000;
constexpr uint64_t kStubEnd = 0x7e0040000000;
constexpr uint64_t kSharedStart = 0x7e0100000000;
constexpr uint64_t kSharedEnd = 0x7e0101800000;
constexpr uint64_t kMapFixed = 0x10;
constexpr uint64_t kMapPrivateAnon = 0x22;
constexpr uint64_t kMremapMaymove = 1;
constexpr uint64_t kMremapFixed = 2;
constexpr uint64_t kSigsys = 31;
constexpr uint64_t kSigint = 2;
constexpr uint64_t kArchSetFs = 0x1002;
constexpr uint64_t kArchSetGs = 0x1001;
constexpr uint64_t kArchGetGs = 0x1004;
constexpr uint64_t kShmRemap = 0x4000;

class SyscallPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override { DefaultRules(rules_); }

  Verdict Decide(uint64_t nr, std::initializer_list<uint64_t> list = {}) {
    uint64_t args[6] = {};
    int i = 0;
    for (uint64_t a : list) args[i++] = a;
    return snare::Decide(Context(), nr, args);
  }

  PolicyContext Context() const { return {rules_, kRanges, 2, 1020, 1022}; }

  static constexpr ProtectedRange kRanges[2] = {{kStubStart, kStubEnd}, {kSharedStart, kSharedEnd}};
  PolicyRule rules_[kSyscallLimit];
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

TEST_F(SyscallPolicyTest, DefaultRulesFollowTheTable) {
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    SCOPED_TRACE(nr);
    const SyscallInfo* info = FindSyscall(static_cast<uint64_t>(nr));
    EXPECT_EQ(rules_[nr].pad, 0);
    if (!info) {
      EXPECT_EQ(rules_[nr].disposition, static_cast<uint8_t>(Disposition::kDeny));
      EXPECT_EQ(rules_[nr].deny_errno, ENOSYS);
      continue;
    }
    EXPECT_EQ(rules_[nr].disposition, static_cast<uint8_t>(info->disposition));
    EXPECT_EQ(rules_[nr].deny_errno, info->deny_errno);
  }
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
  rules_[__NR_getppid].disposition = static_cast<uint8_t>(Disposition::kKill);
  EXPECT_EQ(Decide(__NR_getppid).kind, Verdict::kKill);

  rules_[__NR_getppid].disposition = static_cast<uint8_t>(Disposition::kDeny);
  rules_[__NR_getppid].deny_errno = EACCES;
  EXPECT_TRUE(Returns(Decide(__NR_getppid), -EACCES));

  // The rule decides before any argument check.
  rules_[__NR_read].disposition = static_cast<uint8_t>(Disposition::kKill);
  EXPECT_EQ(Decide(__NR_read, {1021, 0, 0}).kind, Verdict::kKill);
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
      Decide(__NR_mmap, {0x7e0000001000, 4096, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0}), -EPERM));
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {kSharedEnd - 4096, 4096, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
  // Starting below and reaching in.
  EXPECT_TRUE(Returns(
      Decide(__NR_mmap, {kStubStart - 4096, 8192, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
  // A hint is only a hint: the kernel picks another place.
  EXPECT_TRUE(
      IsPassthrough(Decide(__NR_mmap, {0x7e0000001000, 4096, 3, kMapPrivateAnon, ~0ull, 0})));
  // Adjacent ranges are fine.
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mmap, {kStubStart - 4096, 4096, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0})));
  EXPECT_TRUE(
      IsPassthrough(Decide(__NR_mmap, {kStubEnd, 4096, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0})));
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mmap, {0x7e0080000000, 4096, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0})));
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
      Decide(__NR_mmap, {kStubStart - 0x1000, ~0ull, 3, kMapFixed | kMapPrivateAnon, ~0ull, 0}),
      -EPERM));
}

TEST_F(SyscallPolicyTest, Mremap) {
  // mremap(old, old_size, new_size, flags, new_address)
  EXPECT_TRUE(Returns(Decide(__NR_mremap, {0x7f0000000000, 4096, 4096,
                                           kMremapMaymove | kMremapFixed, 0x7e0000001000}),
                      -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_mremap, {0x7f0000000000, 4096, 8192,
                                           kMremapMaymove | kMremapFixed, kStubStart - 4096}),
                      -EPERM));
  EXPECT_TRUE(
      Returns(Decide(__NR_mremap, {0x7e0000001000, 4096, 8192, kMremapMaymove, 0}), -EPERM));
  // Without MREMAP_FIXED the fifth argument is ignored.
  EXPECT_TRUE(IsPassthrough(
      Decide(__NR_mremap, {0x7f0000000000, 4096, 8192, kMremapMaymove, 0x7e0000001000})));
  EXPECT_TRUE(IsPassthrough(Decide(
      __NR_mremap, {0x7f0000000000, 4096, 4096, kMremapMaymove | kMremapFixed, 0x7f0000100000})));
}

TEST_F(SyscallPolicyTest, ShmatInsideProtectedMemory) {
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, 0x7e0000001000, 0}), -EPERM));
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, kSharedStart, kShmRemap}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_shmat, {7, 0, 0})));  // the kernel picks the address
  // SHM_REMAP maps over whatever is there for a segment size the policy cannot see: refused.
  EXPECT_TRUE(Returns(Decide(__NR_shmat, {7, 0x7f0000000000, kShmRemap}), -EPERM));
  EXPECT_TRUE(IsPassthrough(Decide(__NR_shmat, {7, 0x7f0000000000, 0})));
}

// shmat(SHM_REMAP) just below the stub, with a segment of several pages, would map over
// the stub's text (where the filter lets syscalls through) on kernels without mseal. The
// policy cannot see the segment size, so SHM_REMAP is refused everywhere.
TEST_F(SyscallPolicyTest, ShmatRemapBelowProtectedMemory) {
  EXPECT_FALSE(IsPassthrough(Decide(__NR_shmat, {7, kStubStart - 0x1000, kShmRemap})));
}

TEST_F(SyscallPolicyTest, SigsysActionIsHidden) {
  Verdict v = Decide(__NR_rt_sigaction, {kSigsys, 0x1000, 0x2000, 8});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_addr, 0x2000u);
  ASSERT_EQ(v.copyout_len, 32u);
  for (uint32_t i = 0; i < v.copyout_len; ++i) EXPECT_EQ(v.copyout[i], 0) << i;

  v = Decide(__NR_rt_sigaction, {kSigsys, 0x1000, 0, 8});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_len, 0u);
  EXPECT_EQ(v.copyout_addr, 0u);

  EXPECT_TRUE(IsPassthrough(Decide(__NR_rt_sigaction, {kSigint, 0x1000, 0x2000, 8})));
}

TEST_F(SyscallPolicyTest, GsBaseBelongsToTheStub) {
  EXPECT_TRUE(Returns(Decide(__NR_arch_prctl, {kArchSetGs, 0x1000}), -EPERM));
  Verdict v = Decide(__NR_arch_prctl, {kArchGetGs, 0x3000});
  ASSERT_TRUE(Returns(v, 0));
  EXPECT_EQ(v.copyout_addr, 0x3000u);
  ASSERT_EQ(v.copyout_len, 8u);
  for (uint32_t i = 0; i < v.copyout_len; ++i) EXPECT_EQ(v.copyout[i], 0) << i;
  EXPECT_TRUE(IsPassthrough(Decide(__NR_arch_prctl, {kArchSetFs, 0x1000})));
}

}  // namespace
}  // namespace snare
