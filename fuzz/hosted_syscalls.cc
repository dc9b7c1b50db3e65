#include "fuzz/hosted_syscalls.h"

#include <asm/unistd_64.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bitset>
#include <cerrno>

#include "platform/systrap/stub/raw_syscall.h"

namespace snare::fuzz {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kPages = kArenaSize / kPage;

struct Arena {
  bool reserved = false;
  std::bitset<kPages> mapped;  // pages the code under test mapped since the last reset
  uint64_t next = 0;           // where the next non-fixed mapping goes (a page index)
};

Arena& TheArena() {
  static Arena a;
  if (!a.reserved) {
    void* p = mmap(reinterpret_cast<void*>(kArenaStart), kArenaSize, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != reinterpret_cast<void*>(kArenaStart)) __builtin_trap();  // the arena is taken
    a.reserved = true;
  }
  return a;
}

bool InArena(uint64_t start, uint64_t len) {
  return start >= kArenaStart && len <= kArenaSize && start - kArenaStart <= kArenaSize - len;
}

bool AllMapped(const Arena& a, uint64_t start, uint64_t len) {
  for (uint64_t p = (start - kArenaStart) / kPage; p < (start - kArenaStart + len) / kPage; ++p) {
    if (!a.mapped[p]) return false;
  }
  return true;
}

bool AnyMapped(const Arena& a, uint64_t start, uint64_t len) {
  for (uint64_t p = (start - kArenaStart) / kPage; p < (start - kArenaStart + len) / kPage; ++p) {
    if (a.mapped[p]) return true;
  }
  return false;
}

long Map(uint64_t addr, uint64_t len, long prot, long flags, long fd, long off) {
  Arena& a = TheArena();
  if (len == 0 || (addr & (kPage - 1)) || (off & (kPage - 1))) return -EINVAL;
  const uint64_t rounded = (len + kPage - 1) & ~(kPage - 1);
  if (rounded < len) return -ENOMEM;
  if (flags & MAP_FIXED_NOREPLACE) {
    if (!InArena(addr, rounded) || AnyMapped(a, addr, rounded)) return -EEXIST;
  } else if (flags & MAP_FIXED) {
    if (!InArena(addr, rounded) || !AllMapped(a, addr, rounded)) __builtin_trap();
  } else {
    if (rounded > kArenaSize - a.next * kPage) return -ENOMEM;
    addr = kArenaStart + a.next * kPage;
  }
  const long flags_here = (flags & ~MAP_FIXED_NOREPLACE) | MAP_FIXED;
  const long r = syscall(SYS_mmap, addr, rounded, prot, flags_here, fd, off);
  if (r < 0) return -errno;
  const uint64_t first = (addr - kArenaStart) / kPage;
  for (uint64_t p = first; p < first + rounded / kPage; ++p) a.mapped[p] = true;
  if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))) a.next = first + rounded / kPage;
  return static_cast<long>(addr);
}

}  // namespace

void ResetArena() {
  Arena& a = TheArena();
  mmap(reinterpret_cast<void*>(kArenaStart), kArenaSize, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  a.mapped.reset();
  a.next = 0;
}

}  // namespace snare::fuzz

namespace snare::stub {

long Sys(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  using snare::fuzz::TheArena;
  switch (nr) {
    case __NR_pread64:
    case __NR_fstat: {
      const long r = syscall(nr, a0, a1, a2, a3);
      return r < 0 ? -errno : r;
    }
    case __NR_mmap:
      return snare::fuzz::Map(a0, a1, a2, a3, a4, a5);
    case __NR_mprotect:
      if (!snare::fuzz::InArena(a0, a1) || !snare::fuzz::AllMapped(TheArena(), a0, a1)) {
        __builtin_trap();
      }
      return syscall(nr, a0, a1, a2) < 0 ? -errno : 0;
    case __NR_munmap:
      if (!snare::fuzz::InArena(a0, a1)) __builtin_trap();
      return snare::fuzz::Map(a0, a1, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) < 0
                 ? -EINVAL
                 : 0;
    default:
      __builtin_trap();  // a call the hosted build does not serve
  }
}

}  // namespace snare::stub
