#include "platform/systrap/stub/passthrough.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/stat.h>

#include "platform/systrap/stub/elf_loader.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "platform/systrap/sysmsg/shared_region.h"

// The pathname the stub passes to execveat(kStubFd, ...). The seccomp filter only lets the
// stub exec with this exact pointer, which lies in sealed read-only memory.
extern "C" __attribute__((used, aligned(8))) const char kStubEmptyPath[8] = "";

namespace snare::stub {
namespace {

using abi::FpstateSize;
using abi::kSaRestorer;
using abi::KSigaction;
using abi::kSigsysBit;
using abi::KStack;
using abi::KUcontext;

using systrap::Slot;

extern "C" long StubClone(long nr, long a0, long a1, long a2, long a3, long a4,
                          KUcontext* child_frame);
extern "C" long StubVfork(long flags, KUcontext* child_frame, void* save, uint64_t top);
extern "C" [[noreturn]] void StubSigreturnAt(void* uc);

// Copies a guest sigset and removes SIGSYS: a blocked SIGSYS would turn the next trap into
// a kill (the kernel forces seccomp's signal through by resetting it to SIG_DFL).
const uint64_t* StripSigsys(uint64_t guest_set, uint64_t* copy) {
  if (!guest_set) return nullptr;
  *copy = *reinterpret_cast<const uint64_t*>(guest_set) & ~kSigsysBit;
  return copy;
}

// The restorer and SA_RESTORER flag each guest handler was installed with: the kernel holds
// the stub's restorer instead, and the guest must read back its own. Per process (copied on
// fork, reset by execve, which also resets handlers).
struct GuestRestorer {
  uint64_t restorer;
  bool flag;
};
GuestRestorer g_restorers[65];
// The process whose handlers g_restorers describes. A vfork child shares the parent's memory,
// and with it this table, but has handlers of its own (it resets them before its exec).
int32_t g_restorers_owner = 0;

// The mask and alternate stack in force while the handler runs are the guest's; the
// handler's rt_sigreturn would restore the ones saved at the trap. Save the new ones there.
void KeepSignalMask(KUcontext* uc) {
  uint64_t now;
  if (Sys(__NR_rt_sigprocmask, 0 /* SIG_BLOCK */, 0, P(&now), 8) == 0) {
    uc->uc_sigmask = now & ~kSigsysBit;
  }
}

void KeepAltStack(KUcontext* uc) {
  KStack now;
  if (Sys(__NR_sigaltstack, 0, P(&now)) == 0) uc->uc_stack = now;
}

long CloseRangeFixed(const uint64_t* a) {
  // Never close or mark close-on-exec the reserved fds.
  auto first = static_cast<uint32_t>(a[0]);
  auto last = static_cast<uint32_t>(a[1]);
  if (first > last) return -EINVAL;
  long r = 0;
  if (first < systrap::kFirstReservedFd) {
    uint32_t hi = last < systrap::kFirstReservedFd ? last : systrap::kFirstReservedFd - 1;
    r = Sys(__NR_close_range, first, hi, a[2]);
    if (r < 0) return r;
  }
  if (last > systrap::kLastReservedFd) {
    uint32_t lo = first > systrap::kLastReservedFd ? first : systrap::kLastReservedFd + 1;
    r = Sys(__NR_close_range, lo, last, a[2]);
  }
  return r;
}

void CopyFrames(const Slot* from, Slot* to) {
  to->depth = from->depth;
  for (uint32_t i = 0; i < systrap::kMaxDepth; ++i) to->frames[i] = from->frames[i];
  for (uint32_t i = 0; i < systrap::kMaxDepth; ++i) {
    to->frames[i].state &= ~systrap::kStateStubWaiting;
  }
}

// The frame a child that starts on a new stack returns through: a copy of ours, made on that
// stack below `child_sp` before the clone, so that we may return (and our frame be reused) at
// once rather than wait for the child to copy it. glibc's clone writes the child's function
// and argument at the top of that stack from the parent too: a stack the parent may not write
// faults in the parent, natively as here. What another guest thread writes into the copy
// before the child returns through it gives it no more than its own rt_sigreturn would.
KUcontext* PrepareChildFrame(const KUcontext* uc, uint64_t child_sp, bool thread) {
  const uint32_t fpsize =
      uc->mc.fpstate ? FpstateSize(reinterpret_cast<const void*>(uc->mc.fpstate)) : 0;
  // Below what glibc left at the top, and 64-aligned for xrstor.
  const uint64_t fp_at = (child_sp - 256 - fpsize) & ~63ull;
  auto* copy = reinterpret_cast<KUcontext*>((fp_at - sizeof(KUcontext)) & ~63ull);
  *copy = *uc;
  if (fpsize) {
    memcpy(reinterpret_cast<void*>(fp_at), reinterpret_cast<const void*>(uc->mc.fpstate), fpsize);
    copy->mc.fpstate = fp_at;
  }
  copy->mc.rax = 0;
  copy->mc.rsp = child_sp;
  if (thread) {
    // A new thread starts without an alternate signal stack.
    copy->uc_stack.ss_sp = 0;
    copy->uc_stack.ss_flags = 2;  // SS_DISABLE
    copy->uc_stack.ss_size = 0;
  }
  return copy;
}

// A child that shares our memory and runs on our stack until it execs or exits (vfork, or a
// CLONE_VM | CLONE_VFORK clone with no stack of its own): it runs the guest's code below the
// guest's stack pointer, where this handler's frames and the trap's signal frame lie. The
// parent keeps those (from its stack pointer up to the frame's top) in a mapping of its own
// while the kernel holds it in the clone, and puts them back once the child has exec'd or
// exited (StubVfork). The child starts from a copy of our frame made further down the stack,
// where it only reads it before its own code reuses the space. Without a place to keep them,
// the child is a fork, as before: slower, the same to a program that keeps to vfork's rules.
constexpr uint64_t kVforkSaveBytes = 64 * 1024;
constexpr uint64_t kVforkFlags = CLONE_VM | CLONE_VFORK | 0xff /* the exit signal */;

bool VforkOnOurStack(uint64_t flags, const KUcontext* uc, long* result) {
  uint64_t sp;
  asm volatile("mov %%rsp, %0" : "=r"(sp));
  const uint64_t top = uc->mc.rsp - 128;  // the red zone's bottom: the kernel's frame lies below
  if (top <= sp || top - sp > kVforkSaveBytes - 256) return false;
  const long save = Sys(__NR_mmap, 0, kVforkSaveBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (save < 0) return false;
  // Below StubVfork's own frame, which the parent keeps.
  KUcontext* frame = PrepareChildFrame(uc, sp - 1024, /*thread=*/false);
  frame->mc.rsp = uc->mc.rsp;
  *result = StubVfork(static_cast<long>(flags), frame, reinterpret_cast<void*>(save), top);
  Sys(__NR_munmap, save, kVforkSaveBytes);
  return true;
}

long DoClone(uint64_t nr, const uint64_t* a, const KUcontext* uc) {
  Slot* parent_slot = CurrentSlot();
  // The child needs a slot of its own: without one, fail as the kernel does at a task limit.
  if (!SlotAvailable()) return -EAGAIN;
  long r;
  const bool vfork_on_our_stack =
      nr == __NR_vfork || (nr == __NR_clone && !a[1] && (a[0] & ~kVforkFlags) == 0 &&
                           (a[0] & (CLONE_VM | CLONE_VFORK)) == (CLONE_VM | CLONE_VFORK));
  if (vfork_on_our_stack &&
      VforkOnOurStack(nr == __NR_vfork ? CLONE_VM | CLONE_VFORK | 17 /* SIGCHLD */ : a[0], uc,
                      &r)) {
    return r;  // the parent: the child went on from its copy of the frame
  }
  if (nr == __NR_fork || nr == __NR_vfork) {
    // A fork: the child must not share the parent's stack and slot.
    r = StubClone(__NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0, nullptr);
  } else if (nr == __NR_clone) {
    uint64_t flags = a[0];
    // A vfork child on a stack of its own (posix_spawn) shares our memory as it asks; one on
    // ours with flags VforkOnOurStack does not take is a fork.
    if ((flags & CLONE_VFORK) && !a[1]) flags &= ~(CLONE_VM | CLONE_VFORK);
    KUcontext* frame =
        a[1] ? PrepareChildFrame(uc, a[1], (flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM)
             : nullptr;
    r = StubClone(__NR_clone, static_cast<long>(flags), a[1], a[2], a[3], a[4], frame);
  } else {  // clone3
    uint64_t size = a[1];
    if (size < 64 || size > 128) return -EINVAL;
    uint64_t args[16] = {};
    memcpy(args, reinterpret_cast<const void*>(a[0]), size);
    uint64_t& flags = args[0];
    const uint64_t child_sp = args[5] ? args[5] + args[6] : 0;  // stack + stack_size
    if ((flags & CLONE_VFORK) && !child_sp) flags &= ~(CLONE_VM | CLONE_VFORK);
    KUcontext* frame =
        child_sp ? PrepareChildFrame(uc, child_sp, (flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM)
                 : nullptr;
    r = StubClone(__NR_clone3, P(args), static_cast<long>(size), 0, 0, 0, frame);
  }
  if (r == 0) {
    // A child on the parent's (copied) stack: it continues this handler in its own slot.
    Slot* slot = ClaimSlot();
    OwnProcessTables(*slot);
    if (parent_slot) CopyFrames(parent_slot, slot);
    return 0;
  }
  return r;
}

// The guest's program (per process; an exec loads the next one). Guest memory: a guest that
// rewrites it only changes what its own exec of /proc/self/exe asks for.
char g_executable[4096];

// Whether path names this process's /proc/.../exe.
bool IsSelfExe(const char* path) {
  if (!path || !StartsWith(path, "/proc/")) return false;
  const char* rest = path + 6;
  char pid[24];
  LineWriter(pid, sizeof(pid) - 1).Dec(Sys(__NR_getpid)).Char(0);
  const char* const whos[] = {"self", "thread-self", pid};
  for (const char* who : whos) {
    const size_t n = strlen(who);
    if (StartsWith(rest, who) && rest[n] == '/' && StartsWith(rest + n + 1, "exe") &&
        rest[n + 4] == 0) {
      return true;
    }
  }
  return false;
}

// execve: check the target the way the kernel would, then exec the stub again with it.
constexpr int kMaxScriptDepth = 4;

long OpenExecutable(int dirfd, const char* path, int at_flags, int* out_fd) {
  long fd;
  if ((at_flags & AT_EMPTY_PATH) && path[0] == 0) {
    fd = Sys(__NR_fcntl, dirfd, F_DUPFD, 3);
  } else {
    int open_flags = O_RDONLY | ((at_flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0);
    fd = Sys(__NR_openat, dirfd, P(path), open_flags);
  }
  if (fd < 0) return fd == -ELOOP && (at_flags & AT_SYMLINK_NOFOLLOW) ? -ELOOP : fd;
  struct statx stx;
  long r = Sys(__NR_statx, fd, P(kStubEmptyPath), AT_EMPTY_PATH, STATX_TYPE | STATX_MODE, P(&stx));
  if (r == 0 && !S_ISREG(stx.stx_mode)) r = -EACCES;
  if (r == 0) {
    r = Sys(__NR_faccessat2, fd, P(kStubEmptyPath), 1 /* X_OK */, AT_EMPTY_PATH | AT_EACCESS);
  }
  if (r < 0) {
    Sys(__NR_close, fd);
    return r;
  }
  *out_fd = static_cast<int>(fd);
  return 0;
}

long DoExec(uint64_t nr, const uint64_t* a) {
  int dirfd = AT_FDCWD;
  int at_flags = 0;
  const char* path;
  const char* const* argv;
  const char* const* envp;
  if (nr == __NR_execveat) {
    dirfd = static_cast<int>(a[0]);
    path = reinterpret_cast<const char*>(a[1]);
    argv = reinterpret_cast<const char* const*>(a[2]);
    envp = reinterpret_cast<const char* const*>(a[3]);
    at_flags = static_cast<int>(a[4]);
  } else {
    path = reinterpret_cast<const char*>(a[0]);
    argv = reinterpret_cast<const char* const*>(a[1]);
    envp = reinterpret_cast<const char* const*>(a[2]);
  }
  if (!path) return -EFAULT;
  // busybox, Go programs and runc re-exec themselves through /proc/self/exe: the program, not
  // the stub.
  if ((dirfd == AT_FDCWD || path[0] == '/') && IsSelfExe(path) && g_executable[0]) {
    path = g_executable;
  }

  // Script interpreters ("#!"): prefix arguments, innermost last.
  char lines[kMaxScriptDepth][256];
  const char* prefix[2 * kMaxScriptDepth + 1];
  int nprefix = 0;
  const char* script_path = path;
  int fd;
  long r = OpenExecutable(dirfd, path, at_flags, &fd);
  for (int depth = 0;; ++depth) {
    if (r < 0) return r;
    uint8_t head[256];
    long n = Sys(__NR_pread64, fd, P(head), sizeof(head), 0);
    long kind = n < 0 ? n : ClassifyExecutable(head, n);
    if (kind == 0) break;
    if (kind < 0 || depth == kMaxScriptDepth) {
      Sys(__NR_close, fd);
      return kind < 0 ? kind : -ELOOP;
    }
    // "#!interp [arg]"
    char* line = lines[depth];
    long len = 0;
    for (long i = 2; i < n && head[i] != '\n' && len < 255; ++i)
      line[len++] = static_cast<char>(head[i]);
    line[len] = 0;
    char* p = line;
    while (*p == ' ' || *p == '\t') ++p;
    char* interp = p;
    while (*p && *p != ' ' && *p != '\t') ++p;
    char* arg = nullptr;
    if (*p) {
      *p++ = 0;
      while (*p == ' ' || *p == '\t') ++p;
      if (*p) {
        arg = p;
        char* end = p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t')) *--end = 0;
      }
    }
    Sys(__NR_close, fd);
    if (!*interp) return -ENOEXEC;
    // Innermost interpreter first in argv: shift what we have.
    const char* add[3] = {interp, arg, script_path};
    int nadd = arg ? 3 : 2;
    if (!arg) add[1] = script_path;
    for (int i = nprefix - 1; i >= 0; --i) prefix[i + nadd] = prefix[i];
    for (int i = 0; i < nadd; ++i) prefix[i] = add[i];
    nprefix += nadd;
    // The script's own path stays; the original argv[0] is dropped below.
    script_path = interp;
    r = OpenExecutable(AT_FDCWD, interp, 0, &fd);
  }

  long argc = 0;
  if (argv) {
    while (argv[argc]) ++argc;
  }
  // When a script was found, argv[0] is replaced by the interpreter chain.
  long skip = (nprefix && argc) ? 1 : 0;
  // For nested scripts the intermediate paths appear once each: drop duplicates the
  // shifting produced (interp of level k == script path of level k+1).
  long total = 4 + nprefix + (argc - skip) + 1;
  long bytes = (total * 8 + 4095) & ~4095L;
  long mem = Sys(__NR_mmap, 0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem < 0) {
    Sys(__NR_close, fd);
    return -ENOMEM;
  }
  auto** out = reinterpret_cast<const char**>(mem);
  char slot_str[16], fd_str[16];
  LineWriter(slot_str, sizeof(slot_str) - 1).Udec(SlotIndex(CurrentSlot())).Char(0);
  LineWriter(fd_str, sizeof(fd_str) - 1).Dec(fd).Char(0);
  long k = 0;
  out[k++] = "snare-stub";
  out[k++] = slot_str;
  out[k++] = fd_str;
  out[k++] = path;
  for (int i = 0; i < nprefix; ++i) out[k++] = prefix[i];
  for (long i = skip; i < argc; ++i) out[k++] = argv[i];
  out[k] = nullptr;
  if (!nprefix && argc == 0) {
    // execve with an empty argv: the guest gets argc == 0, like the kernel gives it.
  }
  r = Sys(__NR_execveat, systrap::kStubFd, P(kStubEmptyPath), mem, P(envp), AT_EMPTY_PATH);
  Sys(__NR_munmap, mem, bytes);
  Sys(__NR_close, fd);
  return r;
}

}  // namespace

long SigprocmaskFixed(const uint64_t* a) {
  uint64_t set;
  return a[0] == 1 /* SIG_UNBLOCK */
             ? Sys(__NR_rt_sigprocmask, a[0], a[1], a[2], a[3])
             : Sys(__NR_rt_sigprocmask, a[0], P(StripSigsys(a[1], &set)), a[2], a[3]);
}

long SigactionFixed(const uint64_t* a) {
  auto sig = static_cast<uint64_t>(a[0]);
  long r;
  GuestRestorer previous = sig < 65 ? g_restorers[sig] : GuestRestorer{};
  if (!a[1]) {
    r = Sys(__NR_rt_sigaction, a[0], 0, a[2], a[3]);
  } else {
    KSigaction act = *reinterpret_cast<const KSigaction*>(a[1]);
    GuestRestorer guest = {act.restorer, (act.flags & kSaRestorer) != 0};
    act.mask &= ~kSigsysBit;
    if (act.handler > 1) {  // not SIG_DFL / SIG_IGN: return through the stub's restorer
      act.flags |= kSaRestorer;
      act.restorer = reinterpret_cast<uint64_t>(&StubRestoreRt);
    }
    r = Sys(__NR_rt_sigaction, a[0], P(&act), a[2], a[3]);
    // The slot's tgid, not getpid(): no second syscall on every handler a program installs.
    const Slot* slot = CurrentSlot();
    if (r == 0 && sig < 65 && slot && slot->tgid == g_restorers_owner) g_restorers[sig] = guest;
  }
  if (r == 0 && a[2]) {
    auto* old = reinterpret_cast<KSigaction*>(a[2]);
    if (old->restorer == reinterpret_cast<uint64_t>(&StubRestoreRt)) {
      old->restorer = previous.restorer;
      if (!previous.flag) old->flags &= ~kSaRestorer;
    }
  }
  return r;
}

// A child on a new stack: its slot, then the guest's code as the parent left the syscall.
extern "C" [[noreturn]] void StubCloneChildOnNewStack(KUcontext* frame) {
  ClaimSlot();
  StubSigreturnAt(frame);
}

long ExecutePassthrough(uint64_t nr, const uint64_t* a, KUcontext* uc, uint32_t depth) {
  uint64_t set;
  switch (nr) {
    case __NR_rt_sigprocmask: {
      long r = SigprocmaskFixed(a);
      if (r == 0 && a[1]) KeepSignalMask(uc);
      return r;
    }
    case __NR_sigaltstack: {
      long r = Sys(nr, a[0], a[1]);
      if (r == 0 && a[0]) KeepAltStack(uc);
      return r;
    }
    case __NR_rt_sigaction:
      return SigactionFixed(a);
    case __NR_rt_sigsuspend:
      return Sys(nr, P(StripSigsys(a[0], &set)), a[1]);
    case __NR_ppoll:
      return Sys(nr, a[0], a[1], a[2], P(StripSigsys(a[3], &set)), a[4]);
    case __NR_epoll_pwait:
    case __NR_epoll_pwait2:
      return Sys(nr, a[0], a[1], a[2], a[3], P(StripSigsys(a[4], &set)), a[5]);
    case __NR_pselect6: {
      if (!a[5]) break;
      uint64_t data[2];
      memcpy(data, reinterpret_cast<const void*>(a[5]), sizeof(data));
      data[0] = reinterpret_cast<uint64_t>(StripSigsys(data[0], &set));
      return Sys(nr, a[0], a[1], a[2], a[3], a[4], P(data));
    }
    case __NR_close_range:
      return CloseRangeFixed(a);
    case __NR_clone:
    case __NR_clone3:
    case __NR_fork:
    case __NR_vfork:
      return DoClone(nr, a, uc);
    case __NR_execve:
    case __NR_execveat:
      return DoExec(nr, a);
    case __NR_rt_sigreturn: {
      // A guest restorer of its own: return through its frame from stub text.
      Slot* slot = CurrentSlot();
      if (slot) slot->depth = depth;
      StubSigreturnAt(reinterpret_cast<void*>(uc->mc.rsp));
    }
    case __NR_exit:
    case __NR_exit_group: {
      Slot* slot = CurrentSlot();
      if (slot) __atomic_store_n(&slot->state, uint32_t{systrap::kSlotExiting}, __ATOMIC_RELEASE);
      for (;;) Sys(nr, a[0]);
    }
    case __NR_readlink:
    case __NR_readlinkat: {
      long r;
      if (ReadlinkSelfExe(nr, a, &r)) return r;
      break;
    }
    default:
      break;
  }
  return RawSyscall6(static_cast<long>(nr), a[0], a[1], a[2], a[3], a[4], a[5]);
}

void OwnProcessTables(const Slot& slot) { g_restorers_owner = slot.tgid; }

void RememberExecutable(int fd) {
  char link[32];
  LineWriter(link, sizeof(link) - 1).Str("/proc/self/fd/").Dec(fd).Char(0);
  const long n = Sys(__NR_readlink, P(link), P(g_executable), sizeof(g_executable) - 1);
  g_executable[n > 0 && g_executable[0] == '/' ? n : 0] = 0;
}

bool ReadlinkSelfExe(uint64_t nr, const uint64_t* a, long* result) {
  const bool at = nr == __NR_readlinkat;
  if (nr != __NR_readlink && !at) return false;
  const char* path = reinterpret_cast<const char*>(at ? a[1] : a[0]);
  if (at && static_cast<int>(a[0]) != AT_FDCWD && path && path[0] != '/') return false;
  if (!g_executable[0] || !IsSelfExe(path)) return false;
  char* buf = reinterpret_cast<char*>(at ? a[2] : a[1]);
  const long size = static_cast<long>(at ? a[3] : a[2]);
  if (size <= 0) {
    *result = -EINVAL;
    return true;
  }
  long n = static_cast<long>(strlen(g_executable));
  if (n > size) n = size;  // readlink truncates silently, without a NUL
  memcpy(buf, g_executable, static_cast<size_t>(n));
  *result = n;
  return true;
}

}  // namespace snare::stub
