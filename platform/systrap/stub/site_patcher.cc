#include "platform/systrap/stub/site_patcher.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/membarrier.h>
#include <linux/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#include "platform/systrap/stub/guest_policy.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "platform/systrap/sysmsg/shared_region.h"

extern "C" void StubPatchedEntry();

namespace snare::stub {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kTrampolineSize = 32;
constexpr uint64_t kReadTrampolineSize = 64;  // glibc's read (WriteReadTrampoline)
constexpr uint64_t kFirstTrampoline = 32;     // the page starts with StubPatchedEntry's address
constexpr int64_t kReach = (int64_t{1} << 31) - 2 * kPage;
constexpr int kArenas = 32;
constexpr int kSiteRecords = 2048;
// Above every call number (and abi::kSyscallLimit): see Patch.
constexpr uint32_t kLowestTornNumber = 0x10000;

struct Arena {
  uint64_t page;
  uint64_t used;  // bytes, trampolines included
};

// A site's traps so far, and whether patching it failed (then it is never tried again).
struct SiteRecord {
  uint64_t site;
  uint32_t traps;
  uint32_t failed;
};

// Per process (fork copies them along with the pages they describe).
Arena g_arenas[kArenas];
int g_arena_count = 0;
SiteRecord g_sites[kSiteRecords];
uint32_t g_lock = 0;
char g_maps[128 * 1024];
const char kMapsPath[] = "/proc/self/maps";

// The private file-backed text ranges as /proc/self/maps listed them when last read (all
// g_text* under g_lock).
struct TextRange {
  uint64_t start, end;
};
constexpr int kTextRanges = 512;
TextRange g_text[kTextRanges];
int g_text_count = 0;
bool g_text_valid = false;
// A call since the last read mapped or reprotected memory outside every cached range: new
// text may be there, so a site found in no range reads the maps again before it is refused.
bool g_text_may_grow = false;

// The ranges the guest's mapping calls changed, in the order they were noted, in a ring
// that NoteMappingCall writes from any thread and InPrivateFileText reads under g_lock. Each
// entry is a seqlock: `seq` is 0 while it is written, then its claim number plus 1; a reader
// that finds another value (a slow writer, or one claim overwriting an older) reads the maps
// again, as it does for a claim the ring no longer holds.
struct MappingChange {
  uint64_t start, end;
  uint64_t seq;
};
constexpr uint32_t kMappingChanges = 64;
constexpr uint64_t kUnknownEnd = ~uint64_t{0};  // [0, kUnknownEnd): the range is not known
MappingChange g_changes[kMappingChanges];
uint64_t g_changes_claimed = 0;
uint64_t g_changes_checked = 0;  // under g_lock: the claims InPrivateFileText has checked

bool Near(uint64_t a, uint64_t b) {
  const int64_t d = static_cast<int64_t>(a - b);
  return d > -kReach && d < kReach;
}

// The site's record, a new one if it has none (where the table is full around it, the first
// record it may use starts over for it).
SiteRecord* RecordOf(uint64_t site) {
  for (int i = 0; i < 8; ++i) {
    SiteRecord& r = g_sites[(site / 7 + i) % kSiteRecords];
    if (r.site == site) return &r;
    if (r.site == 0) {
      r.site = site;
      return &r;
    }
  }
  SiteRecord& r = g_sites[site / 7 % kSiteRecords];
  r = {site, 0, 0};
  return &r;
}

uint64_t ParseHex(const char*& p) {
  uint64_t v = 0;
  for (;; ++p) {
    const char c = *p;
    if (c >= '0' && c <= '9') {
      v = v * 16 + static_cast<uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = v * 16 + static_cast<uint64_t>(c - 'a' + 10);
    } else {
      return v;
    }
  }
}

// Whether the maps line's fields after "start-end " say a private, file-backed mapping that is
// readable and executable and not writable ("r-xp" with an inode and a path).
bool PrivateFileText(const char* perms, const char* eol) {
  if (perms[0] != 'r' || perms[1] != '-' || perms[2] != 'x' || perms[3] != 'p') return false;
  // Fields after the perms: offset, dev, inode, then the path.
  const char* q = perms + 4;
  int field = 0;
  while (q < eol && field < 3) {
    while (q < eol && *q == ' ') ++q;
    const char* word = q;
    while (q < eol && *q != ' ') ++q;
    if (++field == 3 && q - word == 1 && *word == '0') return false;  // no inode
  }
  while (q < eol && *q == ' ') ++q;
  return q < eol && *q == '/';
}

// Reads /proc/self/maps into g_text: every private file-backed text range, in order. False
// where it cannot be read or holds more ranges than fit (then nothing is cached).
bool ReadTextRanges() {
  const long fd = Sys(__NR_openat, AT_FDCWD, P(kMapsPath), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  uint64_t n = 0;
  for (;;) {
    const long r = Sys(__NR_read, fd, P(g_maps + n), sizeof(g_maps) - 1 - n);
    if (r <= 0) break;
    n += static_cast<uint64_t>(r);
    if (n >= sizeof(g_maps) - 1) break;
  }
  Sys(__NR_close, fd);
  g_maps[n] = 0;
  g_text_count = 0;
  for (const char* line = g_maps; *line;) {
    const char* p = line;
    const uint64_t start = ParseHex(p);
    const uint64_t end = *p == '-' ? ParseHex(++p) : 0;
    const char* perms = *p == ' ' ? p + 1 : p;
    while (*p && *p != '\n') ++p;
    const char* next = *p ? p + 1 : p;
    if (start < end && PrivateFileText(perms, p)) {
      TextRange* last = g_text_count ? &g_text[g_text_count - 1] : nullptr;
      if (last && last->end == start) {
        last->end = end;  // a page a patch split off its mapping
      } else if (g_text_count == kTextRanges) {
        return false;
      } else {
        g_text[g_text_count++] = {start, end};
      }
    }
    line = next;
  }
  return true;
}

bool InTextRanges(uint64_t addr) {
  for (int i = 0; i < g_text_count; ++i) {
    if (addr >= g_text[i].start && addr < g_text[i].end) return true;
  }
  return false;
}

bool OverlapsTextRanges(uint64_t start, uint64_t end) {
  for (int i = 0; i < g_text_count; ++i) {
    if (start < g_text[i].end && g_text[i].start < end) return true;
  }
  return false;
}

// Checks the mapping calls noted since the last look: false if the cached ranges may no
// longer hold (a change over one of them, or one that cannot be read back whole).
bool CachedRangesStillHold() {
  const uint64_t claimed = __atomic_load_n(&g_changes_claimed, __ATOMIC_ACQUIRE);
  if (claimed - g_changes_checked > kMappingChanges) return false;
  for (uint64_t n = g_changes_checked; n != claimed; ++n) {
    const MappingChange& c = g_changes[n % kMappingChanges];
    if (__atomic_load_n(&c.seq, __ATOMIC_ACQUIRE) != n + 1) return false;
    const uint64_t start = __atomic_load_n(&c.start, __ATOMIC_RELAXED);
    const uint64_t end = __atomic_load_n(&c.end, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&c.seq, __ATOMIC_RELAXED) != n + 1) return false;
    if (OverlapsTextRanges(start, end)) return false;
    g_text_may_grow = true;
  }
  return true;
}

bool ReadTextRangesNow() {
  // Every claim so far is a call that has returned: the maps read below show its change.
  g_changes_checked = __atomic_load_n(&g_changes_claimed, __ATOMIC_ACQUIRE);
  g_text_may_grow = false;
  g_text_valid = ReadTextRanges();
  return g_text_valid;
}

// linux/fs.h's PROCMAP_QUERY (Linux 6.11; Debian's 6.1 headers lack it): the one mapping
// that covers an address, asked of /proc/self/maps without formatting the others.
struct ProcmapQuery {
  uint64_t size, query_flags, query_addr;
  uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
  uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
  uint64_t vma_name_addr, build_id_addr;
};
static_assert(sizeof(ProcmapQuery) == 104, "struct procmap_query");
constexpr uint64_t kProcmapQuery = 0xc0000000ull | (sizeof(ProcmapQuery) << 16) | ('f' << 8) | 17;
constexpr uint64_t kVmaReadable = 1, kVmaWritable = 2, kVmaExecutable = 4, kVmaShared = 8;
enum class Query { kUntried, kWorks, kUnavailable };
Query g_query = Query::kUntried;  // under g_lock

// Whether addr lies in a private file-backed text mapping (as PrivateFileText reads a maps
// line), by PROCMAP_QUERY: 1 or 0, or -1 where the kernel lacks it or the guest's policy
// would not let the stub's ioctl through (then the maps are read whole).
int QueryPrivateFileText(uint64_t addr) {
  if (g_query == Query::kUnavailable) return -1;
  const long fd = Sys(__NR_openat, AT_FDCWD, P(kMapsPath), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ProcmapQuery q = {};
  q.size = sizeof(q);
  q.query_addr = addr;
  q.vma_name_addr = P(g_maps);  // the name: a path starts with '/'
  q.vma_name_size = sizeof(g_maps);
  const uint64_t args[6] = {static_cast<uint64_t>(fd), kProcmapQuery, P(&q), 0, 0, 0};
  if (g_query == Query::kUntried &&
      policy::Decide(GuestPolicy(), __NR_ioctl, args).kind != policy::Verdict::kPassthrough) {
    g_query = Query::kUnavailable;
  }
  long r = -ENOTTY;
  if (g_query != Query::kUnavailable) r = Sys(__NR_ioctl, args[0], args[1], args[2]);
  Sys(__NR_close, fd);
  if (r == -ENOENT) return 0;  // nothing mapped there
  if (r != 0) {
    g_query = Query::kUnavailable;  // an old kernel (ENOTTY), or one that refuses it
    return -1;
  }
  g_query = Query::kWorks;
  const uint64_t text = kVmaReadable | kVmaExecutable;
  return (q.vma_flags & (text | kVmaWritable | kVmaShared)) == text && q.inode != 0 &&
         q.vma_name_size > 1 && g_maps[0] == '/';
}

// Whether addr lies in a private, file-backed mapping that is readable and executable and
// not writable: asked of the kernel for addr alone where it can tell (PROCMAP_QUERY: its
// openat, ioctl and close took 2.6 us here against 11.8 us for a small process's whole maps,
// and 90-120 us for python3's read and parsed in the stub), else as /proc/self/maps says: read
// again only where a mapping call since the last read changed memory over a cached range, or may
// have added the range addr lies in (a patch's own mprotects leave the ranges as they were, and are
// not noted). python3 -c pass maps memory between its two patches: it read the maps three times
// where once does.
bool InPrivateFileText(uint64_t addr) {
  if (const int queried = QueryPrivateFileText(addr); queried >= 0) return queried == 1;
  if (!g_text_valid || !CachedRangesStillHold()) {
    if (!ReadTextRangesNow()) return false;
  } else {
    g_changes_checked = __atomic_load_n(&g_changes_claimed, __ATOMIC_ACQUIRE);
  }
  if (InTextRanges(addr)) return true;
  if (!g_text_may_grow || !ReadTextRangesNow()) return false;
  return InTextRanges(addr);
}

// The patcher's own calls run from stub text under the guest's policy: patch only where
// that policy lets every one of them through, so patching never turns a rule the guest
// itself never triggers into a refusal or a kill.
bool PolicyPasses(int nr) { return policy::PassesUnconditionally(g_stub.header->policy, nr); }

bool PolicyLetsThePatcherRun() {
  static const int kPatcherCalls[] = {__NR_read, __NR_close, __NR_mmap, __NR_munmap, __NR_mprotect};
  for (int nr : kPatcherCalls) {
    if (!PolicyPasses(nr)) return false;
  }
  // openat carries argument rules in a confined sandbox (no setuid modes when it creates):
  // what matters is the patcher's one openat, which the kernel checks with these arguments.
  const uint64_t maps_open[6] = {static_cast<uint64_t>(AT_FDCWD),
                                 static_cast<uint64_t>(P(kMapsPath)),
                                 O_RDONLY | O_CLOEXEC,
                                 0,
                                 0,
                                 0};
  return policy::Evaluate(g_stub.header->policy, __NR_openat, maps_open).action ==
         policy::Action::kPassthrough;
}

// A trampoline slot within reach of site (the arena page is left writable for a moment, until
// CloseArena).
uint64_t Trampoline(uint64_t site, uint64_t size = kTrampolineSize) {
  for (int i = 0; i < g_arena_count; ++i) {
    Arena& a = g_arenas[i];
    if (a.used + size <= kPage && Near(a.page, site)) {
      const uint64_t t = a.page + a.used;
      if (Sys(__NR_mprotect, a.page, kPage, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return 0;
      a.used += size;
      return t;
    }
  }
  if (g_arena_count == kArenas) return 0;
  // A page near the site: below it first (shared objects sit high, heaps grow up).
  const uint64_t base = site & ~(kPage - 1);
  static const int64_t kSteps[] = {-1, 1, -4, 4, -16, 16, -64, 64, -256, 256};
  for (int64_t step : kSteps) {
    const uint64_t hint = base + static_cast<uint64_t>(step * (int64_t{1} << 20));
    const long page = Sys(__NR_mmap, hint, kPage, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (page < 0 && page > -4096) continue;
    if (!Near(static_cast<uint64_t>(page), site)) {
      Sys(__NR_munmap, page, kPage);
      continue;
    }
    *reinterpret_cast<uint64_t*>(page) = reinterpret_cast<uint64_t>(&StubPatchedEntry);
    Arena& a = g_arenas[g_arena_count];
    a.page = static_cast<uint64_t>(page);
    a.used = kFirstTrampoline + size;
    // Published after its page: SyscallOfTornSite reads the arenas from other threads' traps.
    __atomic_store_n(&g_arena_count, g_arena_count + 1, __ATOMIC_RELEASE);
    return a.page + kFirstTrampoline;
  }
  return 0;
}

// The arena page of the trampoline at t, writable since Trampoline(): read and execute only again.
void CloseArena(uint64_t t) { Sys(__NR_mprotect, t & ~(kPage - 1), kPage, PROT_READ | PROT_EXEC); }

// int3 from p up to end: a jump into a trampoline's unused tail traps.
void PadWithInt3(uint8_t* p, uint64_t end) {
  while (p < reinterpret_cast<uint8_t*>(end)) *p++ = 0xcc;
}

void Put(uint8_t*& p, const void* bytes, int n) {
  const uint8_t* b = static_cast<const uint8_t*>(bytes);
  for (int i = 0; i < n; ++i) *p++ = b[i];
}

// lea -128(%rsp),%rsp; mov $nr,%eax; movabs $back,%rcx; jmp *(page start)(%rip)
void WriteTrampoline(uint64_t t, uint32_t nr, uint64_t back) {
  uint8_t* p = reinterpret_cast<uint8_t*>(t);
  const uint8_t lea[] = {0x48, 0x8d, 0x64, 0x24, 0x80};
  Put(p, lea, 5);
  *p++ = 0xb8;
  Put(p, &nr, 4);
  *p++ = 0x48;
  *p++ = 0xb9;
  Put(p, &back, 8);
  *p++ = 0xff;
  *p++ = 0x25;
  const uint64_t page = t & ~(kPage - 1);
  const int32_t rel =
      static_cast<int32_t>(static_cast<int64_t>(page) - static_cast<int64_t>(t + 26));
  Put(p, &rel, 4);
  PadWithInt3(p, t + kTrampolineSize);
}

// Replaces the n bytes at `at`, which `old` must still hold, in one locked compare-and-swap
// of the aligned 8-byte word or 16-byte block that holds them all: another thread fetches
// either the old bytes or the new, never some of each.
bool SwapBytes(uint64_t at, const uint8_t* old, const uint8_t* bytes, int n) {
  const bool word = (at & 7) + n <= 8;
  const uint64_t base = at & ~(word ? uint64_t{7} : uint64_t{15});
  if (!word && (at & 15) + n > 16) return false;
  uint64_t* w = reinterpret_cast<uint64_t*>(base);
  uint64_t cur[2] = {__atomic_load_n(&w[0], __ATOMIC_ACQUIRE),
                     word ? 0 : __atomic_load_n(&w[1], __ATOMIC_ACQUIRE)};
  uint8_t image[16];
  memcpy(image, cur, 16);
  for (int i = 0; i < n; ++i) {
    if (image[at - base + i] != old[i]) return false;
    image[at - base + i] = bytes[i];
  }
  uint64_t next[2];
  memcpy(next, image, 16);
  if (word) {
    return __atomic_compare_exchange_n(w, &cur[0], next[0], false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
  }
  bool ok;
  __asm__ volatile("lock cmpxchg16b %1"
                   : "=@ccz"(ok), "+m"(*reinterpret_cast<unsigned __int128*>(w)), "+a"(cur[0]),
                     "+d"(cur[1])
                   : "b"(next[0]), "c"(next[1])
                   : "memory");
  return ok;
}

// Every thread of the process executes a serializing instruction before it runs user code
// again, so none runs an instruction it fetched before now.
bool SyncCores() {
  return Sys(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0;
}

// The `mov` at `site` becomes `jmp rel32` (`jmp` byte `e9` in `code`, then rel32).
bool WriteJump(uint64_t site, const uint8_t (&old)[5], const uint8_t (&code)[5]) {
  if ((site & 15) <= 11) return SwapBytes(site, old, code, 5);
  if ((site & 15) == 15) {
    // Only the opcode byte lies in the first block, and no `jmp .` fits there to park threads
    // on: write the rel32 over the `mov`'s immediate first. A thread that fetches the old
    // opcode with it moves the rel32 into %eax and traps at the `syscall` with that number,
    // which the trap handler maps back (SyscallOfTornSite); then the opcode.
    if (Sys(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) != 0 ||
        !SwapBytes(site + 1, old + 1, code + 1, 4)) {
      return false;
    }
    if (!SyncCores()) {
      SwapBytes(site + 1, code + 1, old + 1, 4);
      return false;
    }
    return SwapBytes(site, old, code, 1);
  }
  // The 5 bytes cross an aligned 16-byte block, so no one store writes them. As Linux's
  // text_poke_bp does with int3, park arriving threads first, here on a `jmp .` in the first
  // two bytes; then write the rest, and last the first two.
  if (Sys(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) != 0) {
    return false;
  }
  static const uint8_t kSelfLoop[2] = {0xeb, 0xfe};
  if (!SwapBytes(site, old, kSelfLoop, 2)) return false;
  // A thread that fetched the `mov` before the loop was written has run it by now. The loop
  // must not stay: where a sync fails, the `mov` goes back.
  if (!SyncCores()) {
    SwapBytes(site, kSelfLoop, old, 2);
    return false;
  }
  volatile uint8_t* tail = reinterpret_cast<volatile uint8_t*>(site);
  for (int i = 2; i < 5; ++i) tail[i] = code[i];
  if (!SyncCores()) {
    for (int i = 2; i < 5; ++i) tail[i] = old[i];
    SyncCores();
    SwapBytes(site, kSelfLoop, old, 2);
    return false;
  }
  return SwapBytes(site, kSelfLoop, code, 2);
}

// Writes a `jmp` to the trampoline at `t` over the 5 bytes at `site`, in one store where
// `one_store` (a whole instruction that no torn write may show), else as WriteJump parks
// threads around it, with the code page writable only meanwhile.
bool JumpToTrampoline(uint64_t site, uint64_t t, bool one_store) {
  const uint64_t page = site & ~(kPage - 1);
  if (Sys(__NR_mprotect, page, kPage, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return false;
  const int32_t rel =
      static_cast<int32_t>(static_cast<int64_t>(t) - static_cast<int64_t>(site + 5));
  uint8_t old[5], jump[5] = {0xe9};
  memcpy(old, reinterpret_cast<const void*>(site), 5);
  memcpy(jump + 1, &rel, 4);
  const bool ok = one_store ? SwapBytes(site, old, jump, 5) : WriteJump(site, old, jump);
  Sys(__NR_mprotect, page, kPage, PROT_READ | PROT_EXEC);
  return ok;
}

// glibc's read() fast path, the 13 bytes that end at its `syscall`: `cmpb $0x0,
// __libc_single_threaded(%rip); je <the cancellable path>; xor %eax,%eax; syscall`. No `mov`
// holds its number, so it is not a site Patch knows.
bool IsGlibcReadSite(uint64_t rip) {
  const uint8_t* c = reinterpret_cast<const uint8_t*>(rip - 13);
  return c[0] == 0x80 && c[1] == 0x3d && c[6] == 0x00 && c[7] == 0x74 && c[9] == 0x31 &&
         c[10] == 0xc0 && c[11] == 0x0f && c[12] == 0x05;
}

// What the read site at `site` compares (__libc_single_threaded) and where its `je` goes.
uint64_t GlibcReadFlag(uint64_t site) {
  int32_t disp;
  memcpy(&disp, reinterpret_cast<const void*>(site + 2), 4);
  return site + 7 + static_cast<uint64_t>(static_cast<int64_t>(disp));
}
uint64_t GlibcReadSlowPath(uint64_t site) {
  const int8_t rel = static_cast<int8_t>(reinterpret_cast<const uint8_t*>(site)[8]);
  return site + 9 + static_cast<uint64_t>(static_cast<int64_t>(rel));
}

// The trampoline for glibc's read: the `cmpb` and `je` again (their targets moved here), then
// what WriteTrampoline writes for read.
void WriteReadTrampoline(uint64_t t, uint64_t site, uint64_t back) {
  const uint64_t flag = GlibcReadFlag(site), slow = GlibcReadSlowPath(site);
  uint8_t* p = reinterpret_cast<uint8_t*>(t);
  const auto rel_from = [](uint64_t to, uint64_t next) {
    return static_cast<int32_t>(static_cast<int64_t>(to) - static_cast<int64_t>(next));
  };
  const uint8_t cmpb[] = {0x80, 0x3d};
  Put(p, cmpb, 2);
  const int32_t to_flag = rel_from(flag, t + 7);
  Put(p, &to_flag, 4);
  *p++ = 0x00;
  const uint8_t jz[] = {0x0f, 0x84};
  Put(p, jz, 2);
  const int32_t to_slow = rel_from(slow, t + 13);
  Put(p, &to_slow, 4);
  const uint8_t lea[] = {0x48, 0x8d, 0x64, 0x24, 0x80};
  Put(p, lea, 5);
  *p++ = 0xb8;
  const uint32_t nr = __NR_read;
  Put(p, &nr, 4);
  *p++ = 0x48;
  *p++ = 0xb9;
  Put(p, &back, 8);
  *p++ = 0xff;
  *p++ = 0x25;
  const int32_t to_entry = rel_from(t & ~(kPage - 1), t + 39);
  Put(p, &to_entry, 4);
  PadWithInt3(p, t + kReadTrampolineSize);
}

// The glibc read() site that ends at rip: its first instruction, the 7-byte `cmpb`, becomes a
// `jmp` to a trampoline that repeats the `cmpb` and the `je` and enters the stub as a patched
// read (the `jmp` takes 5 of its 7 bytes; nothing runs the other 2). One instruction is
// replaced, as Patch replaces the `mov`: a thread stopped at the `je`, `xor` or `syscall`
// after it, by a signal or a trap, resumes on bytes that did not change.
bool PatchGlibcRead(uint64_t rip) {
  const uint64_t site = rip - 13;
  // One store (no parking: a `cmpb` with a torn operand could be another instruction).
  if ((site & 15) > 11 || !IsGlibcReadSite(rip) || !InPrivateFileText(site)) return false;
  const uint64_t t = Trampoline(site, kReadTrampolineSize);
  if (!t) return false;
  // The trampoline's `cmpb` and `je` reach their targets by rel32 too (an arena within reach
  // of the site may not be of both). The slot is given up, and the arena not left writable.
  const bool reach = Near(t, GlibcReadFlag(site)) && Near(t, GlibcReadSlowPath(site));
  if (reach) WriteReadTrampoline(t, site, rip);
  CloseArena(t);
  return reach && JumpToTrampoline(site, t, /*one_store=*/true);
}

// glibc's read() path for a process that has had a second thread, the 21 bytes that end at
// its `syscall`, after its call to __pthread_enable_asynccancel: `mov 0x18(%rsp),%rdx; mov
// 0x10(%rsp),%rsi; mov %eax,%r8d; mov 0x8(%rsp),%edi; xor %eax,%eax; syscall`. Every read of
// a threaded program (git's, Python's) comes this way.
constexpr uint8_t kCancellableRead[] = {0x48, 0x8b, 0x54, 0x24, 0x18, 0x48, 0x8b,
                                        0x74, 0x24, 0x10, 0x41, 0x89, 0xc0, 0x8b,
                                        0x7c, 0x24, 0x08, 0x31, 0xc0, 0x0f, 0x05};
constexpr int kCancellableReadMoves = 17;  // the four moves, which the trampoline repeats

bool IsGlibcCancellableReadSite(uint64_t rip) {
  return memcmp(reinterpret_cast<const void*>(rip - sizeof(kCancellableRead)), kCancellableRead,
                sizeof(kCancellableRead)) == 0;
}

// The cancellable read site that ends at rip: its first `mov`, 5 bytes, becomes a `jmp` to a
// trampoline that makes the four moves (all relative to %rsp or between registers) and
// enters the stub as a patched read. One instruction is replaced, in one store: a thread
// returning from __pthread_enable_asynccancel lands on the `jmp`, one stopped after it
// resumes on bytes that did not change and traps as before.
bool PatchGlibcCancellableRead(uint64_t rip) {
  const uint64_t site = rip - sizeof(kCancellableRead);
  if ((site & 15) > 11 || !IsGlibcCancellableReadSite(rip) || !InPrivateFileText(site)) {
    return false;
  }
  const uint64_t t = Trampoline(site, kReadTrampolineSize);
  if (!t) return false;
  uint8_t* p = reinterpret_cast<uint8_t*>(t);
  Put(p, kCancellableRead, kCancellableReadMoves);
  WriteTrampoline(t + kCancellableReadMoves, __NR_read, rip);
  PadWithInt3(reinterpret_cast<uint8_t*>(t + kCancellableReadMoves + kTrampolineSize),
              t + kReadTrampolineSize);
  CloseArena(t);
  return JumpToTrampoline(site, t, /*one_store=*/true);
}

bool Patch(uint64_t site, uint32_t nr) {
  const uint8_t* code = reinterpret_cast<const uint8_t*>(site);
  uint32_t imm;
  memcpy(&imm, code + 1, 4);
  if (code[0] != 0xb8 || imm != nr || code[5] != 0x0f || code[6] != 0x05) return false;
  if (site >= systrap::kStubBase && site < systrap::kStubBase + systrap::kStubReserve) return false;
  // Across a 16-byte block the jump takes membarrier.
  if ((site & 15) > 11 && !PolicyPasses(__NR_membarrier)) return false;
  if (!InPrivateFileText(site)) return false;
  const uint64_t t = Trampoline(site);
  if (!t) return false;
  const int32_t rel =
      static_cast<int32_t>(static_cast<int64_t>(t) - static_cast<int64_t>(site + 5));
  // At a block's last byte the rel32 is briefly a `mov`'s immediate (WriteJump): as a call
  // number it must be none the kernel's filter lets through or sends on, nor one the stub
  // could take for a real call. (The slot is given up, and the arena not left writable.)
  const bool torn_safe = (site & 15) != 15 || static_cast<uint32_t>(rel) >= kLowestTornNumber;
  if (torn_safe) WriteTrampoline(t, nr, site + 7);
  CloseArena(t);
  return torn_safe && JumpToTrampoline(site, t, /*one_store=*/false);
}

}  // namespace

bool Patchable(uint64_t nr) {
  switch (nr) {
    case __NR_read:
    case __NR_write:
    case __NR_close:
    case __NR_stat:
    case __NR_fstat:
    case __NR_lstat:
    case __NR_lseek:
    case __NR_pread64:
    case __NR_pwrite64:
    case __NR_readv:
    case __NR_writev:
    case __NR_access:
    case __NR_getpid:
    case __NR_getppid:
    case __NR_getuid:
    case __NR_getgid:
    case __NR_geteuid:
    case __NR_getegid:
    case __NR_gettid:
    case __NR_getcwd:
    case __NR_readlink:
    case __NR_getdents64:
    case __NR_openat:
    case __NR_newfstatat:
    case __NR_readlinkat:
    case __NR_faccessat:
    case __NR_statx:
    case __NR_faccessat2:
    case __NR_fcntl:
    case __NR_ioctl:
    case __NR_futex:
    case __NR_brk:
    case __NR_mmap:
    case __NR_munmap:
    case __NR_mprotect:
    case __NR_madvise:
    case __NR_poll:
    case __NR_socket:
    case __NR_connect:
    case __NR_sendto:
    case __NR_recvfrom:
    case __NR_getrandom:
    case __NR_unlink:
    case __NR_unlinkat:
    case __NR_rename:
    case __NR_renameat2:
    case __NR_mkdir:
    case __NR_mkdirat:
    case __NR_fsync:
    case __NR_fdatasync:
    case __NR_ftruncate:
    case __NR_umask:
    case __NR_chdir:
    case __NR_fchdir:
    case __NR_dup:
    case __NR_dup2:
    case __NR_dup3:
    case __NR_pipe2:
    case __NR_rt_sigaction:
    case __NR_rt_sigprocmask:
    case __NR_rseq:
    case __NR_set_robust_list:
    case __NR_fchown:
    case __NR_fchownat:
    case __NR_fchmod:
    case __NR_fchmodat:
    case __NR_chmod:
    case __NR_utimensat:
    case __NR_flock:
    case __NR_fstatfs:
    case __NR_statfs:
    case __NR_preadv:
    case __NR_pwritev:
    case __NR_truncate:
    case __NR_fallocate:
    case __NR_fadvise64:
    case __NR_rmdir:
    case __NR_symlink:
    case __NR_symlinkat:
    case __NR_link:
    case __NR_linkat:
    case __NR_sendfile:
    case __NR_copy_file_range:
    case __NR_epoll_wait:
    case __NR_epoll_ctl:
    case __NR_select:
    case __NR_accept:
    case __NR_accept4:
    case __NR_recvmsg:
    case __NR_sendmsg:
    case __NR_shutdown:
    case __NR_getsockopt:
    case __NR_setsockopt:
    case __NR_getsockname:
    case __NR_getpeername:
    case __NR_bind:
    case __NR_listen:
    case __NR_sched_yield:
    case __NR_nanosleep:
    case __NR_clock_nanosleep:
      return true;
    default:
      return false;
  }
}

void NoteMappingCall(uint64_t nr, const uint64_t (&args)[6], int64_t result) {
  uint64_t start = 0, end = kUnknownEnd;
  switch (nr) {
    case __NR_mmap:
      if (result >= 0 || result < -4095) {  // a failed MAP_FIXED may have unmapped: unknown
        start = static_cast<uint64_t>(result);
        end = start + ((args[1] + kPage - 1) & ~(kPage - 1));
      }
      break;
    case __NR_munmap:
    case __NR_mprotect:
    case __NR_pkey_mprotect:
      start = args[0] & ~(kPage - 1);
      end = args[0] + ((args[1] + kPage - 1) & ~(kPage - 1));
      break;
    case __NR_mremap:
    case __NR_remap_file_pages:
    case __NR_shmat:
    case __NR_shmdt:
      break;
    default:
      return;
  }
  if (end <= start) start = 0, end = kUnknownEnd;  // wrapped, or empty: assume the worst
  const uint64_t claim = __atomic_fetch_add(&g_changes_claimed, uint64_t{1}, __ATOMIC_ACQ_REL);
  MappingChange& c = g_changes[claim % kMappingChanges];
  __atomic_store_n(&c.seq, uint64_t{0}, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&c.start, start, __ATOMIC_RELAXED);
  __atomic_store_n(&c.end, end, __ATOMIC_RELAXED);
  __atomic_store_n(&c.seq, claim + 1, __ATOMIC_RELEASE);
}

void TryPatchSite(uint64_t rip, uint64_t nr) {
  if (rip < 13 || !Patchable(nr) || !PolicyLetsThePatcherRun()) return;
  // The `syscall` at rip - 2 ran, so its page is mapped; the site must be on it too. glibc's
  // read() has no `mov` before its `syscall`: its sites are the 13 bytes (one thread) or 21
  // (more) before rip.
  const auto on_page = [rip](uint64_t a) {
    return (a & ~(kPage - 1)) == ((rip - 1) & ~(kPage - 1));
  };
  const bool read = nr == __NR_read && on_page(rip - 13) && IsGlibcReadSite(rip);
  const bool cancellable_read = nr == __NR_read && !read &&
                                on_page(rip - sizeof(kCancellableRead)) &&
                                IsGlibcCancellableReadSite(rip);
  const uint64_t site = rip - (read ? 13 : cancellable_read ? sizeof(kCancellableRead) : 7);
  if (!on_page(site)) return;
  // A nested trap (a guest signal handler) while another patch is under way just skips.
  uint32_t expected = 0;
  if (!__atomic_compare_exchange_n(&g_lock, &expected, 1u, false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED)) {
    return;
  }
  SiteRecord* r = RecordOf(site);
  // header->patch: the trap at which a site is patched (snare run --patch-after).
  if (!r->failed && ++r->traps >= g_stub.header->patch &&
      !(read               ? PatchGlibcRead(rip)
        : cancellable_read ? PatchGlibcCancellableRead(rip)
                           : Patch(site, static_cast<uint32_t>(nr)))) {
    r->failed = 1;
  }
  __atomic_store_n(&g_lock, 0u, __ATOMIC_RELEASE);
}

uint64_t SyscallOfTornSite(uint64_t rip, uint64_t nr) {
  if (nr < kLowestTornNumber || nr > 0xffffffffu) return nr;
  // The number is the rel32 from the `syscall` to the site's trampoline; the trampoline, one
  // the patcher wrote, holds the site's number and returns to `rip`.
  const uint64_t t =
      rip - 2 + static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(nr)));
  const int arenas = __atomic_load_n(&g_arena_count, __ATOMIC_ACQUIRE);
  for (int i = 0; i < arenas && i < kArenas; ++i) {
    const uint64_t page = __atomic_load_n(&g_arenas[i].page, __ATOMIC_RELAXED);
    if (t < page + kFirstTrampoline || t + kTrampolineSize > page + kPage ||
        (t - page) % kTrampolineSize != 0) {
      continue;
    }
    uint32_t site_nr;
    uint64_t back;
    memcpy(&site_nr, reinterpret_cast<const void*>(t + 6), 4);
    memcpy(&back, reinterpret_cast<const void*>(t + 12), 8);
    return back == rip && Patchable(site_nr) ? site_nr : nr;
  }
  return nr;
}

}  // namespace snare::stub
