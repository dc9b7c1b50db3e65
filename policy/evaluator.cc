#include "policy/evaluator.h"

#include <asm-generic/errno.h>
#include <asm/prctl.h>
#include <asm/unistd.h>
#include <linux/mman.h>
#include <linux/shm.h>

#include "abi/syscall_table.h"

namespace snare::policy {
namespace {

using abi::ArgKind;
using abi::SyscallInfo;

constexpr uint64_t kSigsys = 31;  // <asm/signal.h> would clash with libc's in hosted builds

// What an emulated call stores in the guest: an all-zero struct kernel_sigaction (SIG_DFL)
// or GS base.
constexpr uint8_t kZeros[32] = {};

Verdict Return(int64_t value) {
  Verdict v;
  v.kind = Verdict::kReturn;
  v.value = value;
  return v;
}

Verdict ReturnZeros(uint64_t addr, uint32_t len) {
  Verdict v = Return(0);
  if (addr) {
    v.copyout_addr = addr;
    v.copyout_len = len;
    v.copyout = kZeros;
  }
  return v;
}

bool Overlaps(const PolicyContext& ctx, uint64_t addr, uint64_t len) {
  if (len == 0) return false;
  uint64_t end = addr + len;
  if (end < addr) return true;  // wraps: covers everything above addr
  for (int i = 0; i < ctx.protected_count; ++i) {
    const ProtectedRange& r = ctx.protected_ranges[i];
    if (addr < r.end && r.start < end) return true;
  }
  return false;
}

bool TouchesReservedFd(const PolicyContext& ctx, const SyscallInfo& info, const uint64_t* args) {
  for (int i = 0; i < info.nargs; ++i) {
    if (info.args[i] != ArgKind::kFd) continue;
    auto fd = static_cast<int64_t>(static_cast<int32_t>(args[i]));
    if (fd >= ctx.first_reserved_fd && fd <= ctx.last_reserved_fd) return true;
  }
  return false;
}

bool HasFdArgument(const SyscallInfo& info) {
  for (int i = 0; i < info.nargs; ++i) {
    if (info.args[i] == ArgKind::kFd) return true;
  }
  return false;
}

// The calls Decide looks at beyond the table and the fds: TouchesProtectedMemory's and the
// switch after it.
bool GuardedCall(uint64_t nr) {
  switch (nr) {
    case __NR_mmap:
    case __NR_munmap:
    case __NR_mprotect:
    case __NR_pkey_mprotect:
    case __NR_madvise:
    case __NR_remap_file_pages:
    case __NR_mremap:
    case __NR_shmat:
    case __NR_rt_sigaction:
    case __NR_arch_prctl:
      return true;
    default:
      return false;
  }
}

// Memory-management calls may not touch the stub, the shared region or fiber stacks.
bool TouchesProtectedMemory(const PolicyContext& ctx, uint64_t nr, const uint64_t* a) {
  switch (nr) {
    case __NR_mmap:
      // Fixed, fixed without replacing, or a hint: where the protected ranges have unmapped
      // holes, the kernel would place the guest's mapping there (a hint is taken when free).
      return a[0] != 0 && Overlaps(ctx, a[0], a[1]);
    case __NR_munmap:
    case __NR_mprotect:
    case __NR_pkey_mprotect:
    case __NR_madvise:
    case __NR_remap_file_pages:
      return Overlaps(ctx, a[0], a[1]);
    case __NR_mremap:
      return Overlaps(ctx, a[0], a[1]) || ((a[3] & MREMAP_FIXED) && Overlaps(ctx, a[4], a[2]));
    case __NR_shmat:
      // SHM_REMAP maps over whatever is there, for a size the policy cannot see.
      return (a[2] & SHM_REMAP) || (a[1] != 0 && Overlaps(ctx, a[1], 1));
    default:
      return false;
  }
}

}  // namespace

Disposition Evaluate(const PolicyTable& table, uint64_t nr, const uint64_t args[6]) {
  if (nr >= static_cast<uint64_t>(abi::kSyscallLimit) || !abi::FindSyscall(nr)) {
    return {Action::kDeny, ENOSYS};
  }
  const SyscallEntry& e = table.entries[nr];
  const uint32_t end = static_cast<uint32_t>(e.first_rule) + e.rule_count;
  // The first rule whose checks all hold decides.
  for (uint32_t r = e.first_rule; r < end && r < table.rule_count && r < kMaxArgRules; ++r) {
    const ArgRule& rule = table.rules[r];
    bool all = true;
    for (int i = 0; i < rule.count && i < kMaxArgChecks && all; ++i) {
      all = rule.checks[i].Matches(args);
    }
    if (all) return rule.disposition;
  }
  return e.fallback;
}

bool AlwaysPassesThrough(const PolicyContext& ctx, uint64_t nr) {
  if (nr >= static_cast<uint64_t>(abi::kSyscallLimit)) return false;
  const SyscallInfo* info = abi::FindSyscall(nr);
  if (!info || HasFdArgument(*info) || GuardedCall(nr)) return false;
  return PassesUnconditionally(*ctx.table, static_cast<int>(nr));
}

Verdict Decide(const PolicyContext& ctx, uint64_t nr, const uint64_t args[6]) {
  const Disposition d = Evaluate(*ctx.table, nr, args);
  switch (d.action) {
    case Action::kDeny:
      return Return(-static_cast<int64_t>(d.err));
    case Action::kKill: {
      Verdict v;
      v.kind = Verdict::kKill;
      return v;
    }
    default:
      break;
  }
  const SyscallInfo* info = abi::FindSyscall(nr);
  if (TouchesReservedFd(ctx, *info, args)) return Return(-EBADF);
  if (TouchesProtectedMemory(ctx, nr, args)) return Return(-EPERM);

  switch (nr) {
    case __NR_rt_sigaction:
      // SIGSYS belongs to the stub: the guest sees a default disposition it cannot change.
      if (args[0] == kSigsys) return ReturnZeros(args[2], 32);
      break;
    case __NR_arch_prctl:
      // GS base finds the stub's per-thread slot.
      if (args[0] == ARCH_SET_GS) return Return(-EPERM);
      if (args[0] == ARCH_GET_GS) return ReturnZeros(args[1], 8);
      break;
    default:
      break;
  }
  // kNotify and kTrap pass: a call the filter sends to the notification path was decided
  // there by the sentry (it never traps), and kTrap belongs to platform filters, not guest
  // policies. The guards above still apply.
  if (d.action == Action::kBroker) {
    Verdict v;
    v.kind = Verdict::kBroker;
    return v;
  }
  return Verdict{};
}

}  // namespace snare::policy
