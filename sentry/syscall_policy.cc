#include "sentry/syscall_policy.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>

namespace snare {
namespace {

constexpr uint64_t kSigsys = 31;
constexpr uint64_t kMapFixed = 0x10;
constexpr uint64_t kMremapFixed = 2;
constexpr uint64_t kShmRemap = 040000;
constexpr uint64_t kArchSetGs = 0x1001;
constexpr uint64_t kArchGetGs = 0x1004;

Verdict Return(int64_t value) {
  Verdict v;
  v.kind = Verdict::kReturn;
  v.value = value;
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

// Memory-management calls may not touch the stub, the shared region or fiber stacks.
bool TouchesProtectedMemory(const PolicyContext& ctx, uint64_t nr, const uint64_t* a) {
  switch (nr) {
    case __NR_mmap:
      return (a[3] & kMapFixed) && Overlaps(ctx, a[0], a[1]);
    case __NR_munmap:
    case __NR_mprotect:
    case __NR_pkey_mprotect:
    case __NR_madvise:
    case __NR_remap_file_pages:
      return Overlaps(ctx, a[0], a[1]);
    case __NR_mremap:
      return Overlaps(ctx, a[0], a[1]) || ((a[3] & kMremapFixed) && Overlaps(ctx, a[4], a[2]));
    case __NR_shmat:
      // SHM_REMAP maps over whatever is there, for a size the policy cannot see.
      return (a[2] & kShmRemap) || (a[1] != 0 && Overlaps(ctx, a[1], 1));
    default:
      return false;
  }
}

}  // namespace

void DefaultRules(PolicyRule* rules) {
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    const SyscallInfo* info = FindSyscall(static_cast<uint64_t>(nr));
    rules[nr].pad = 0;
    if (!info) {
      rules[nr].disposition = static_cast<uint8_t>(Disposition::kDeny);
      rules[nr].deny_errno = ENOSYS;
      continue;
    }
    rules[nr].disposition = static_cast<uint8_t>(info->disposition);
    rules[nr].deny_errno = info->deny_errno;
  }
}

Verdict Decide(const PolicyContext& ctx, uint64_t nr, const uint64_t args[6]) {
  const SyscallInfo* info = FindSyscall(nr);
  if (!info || nr >= static_cast<uint64_t>(kSyscallLimit)) return Return(-ENOSYS);
  const PolicyRule& rule = ctx.rules[nr];
  switch (static_cast<Disposition>(rule.disposition)) {
    case Disposition::kDeny:
      return Return(-static_cast<int64_t>(rule.deny_errno));
    case Disposition::kKill: {
      Verdict v;
      v.kind = Verdict::kKill;
      return v;
    }
    default:
      break;
  }
  if (TouchesReservedFd(ctx, *info, args)) return Return(-EBADF);
  if (TouchesProtectedMemory(ctx, nr, args)) return Return(-EPERM);

  switch (nr) {
    case __NR_rt_sigaction:
      // SIGSYS belongs to the stub: the guest sees a default disposition it cannot change.
      if (args[0] == kSigsys) {
        Verdict v = Return(0);
        if (args[2]) {
          v.copyout_addr = args[2];
          v.copyout_len = 32;  // struct kernel_sigaction, all zero: SIG_DFL
        }
        return v;
      }
      break;
    case __NR_arch_prctl:
      // GS base finds the stub's per-thread slot.
      if (args[0] == kArchSetGs) return Return(-EPERM);
      if (args[0] == kArchGetGs) {
        Verdict v = Return(0);
        v.copyout_addr = args[1];
        v.copyout_len = 8;
        return v;
      }
      break;
    default:
      break;
  }
  if (static_cast<Disposition>(rule.disposition) == Disposition::kBroker) {
    Verdict v;
    v.kind = Verdict::kBroker;
    return v;
  }
  return Verdict{};
}

}  // namespace snare
