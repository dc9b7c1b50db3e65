#include "platform/systrap/stub/trap_handler.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>

#include "abi/syscall_table.h"
#include "platform/systrap/stub/guest_policy.h"
#include "platform/systrap/stub/inproc_sentry.h"
#include "platform/systrap/stub/passthrough.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/site_patcher.h"
#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/stub/stub_rodata.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {
namespace {

using abi::ArgKind;
using abi::KSiginfo;
using abi::kSigsys;
using abi::kSysSeccomp;
using abi::KUcontext;
using policy::Verdict;
using systrap::Frame;
using systrap::Slot;

// Dies by SIGSYS, as the kernel's SECCOMP_RET_KILL_PROCESS or a default SIGSYS would.
[[noreturn]] void DieBySigsys() {
  Sys(__NR_rt_sigaction, kSigsys, RodataAddress(systrap::kRodataDefaultAction), 0, 8);
  Sys(__NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, RodataAddress(systrap::kRodataSigsysSet), 0, 8);
  for (;;) Sys(__NR_tgkill, Sys(__NR_getpid), Sys(__NR_gettid), kSigsys);
}

// Copies the first two path arguments for --trace. Only when tracing: a bad pointer
// faults here where the kernel would have returned EFAULT.
void CopyTraceStrings(Frame* f, const abi::SyscallInfo* info) {
  f->strings[0][0] = f->strings[1][0] = 0;
  if (!info) return;
  int used = 0;
  for (int i = 0; i < info->nargs && used < 2; ++i) {
    if (info->args[i] != ArgKind::kPath) continue;
    const char* s = reinterpret_cast<const char*>(f->args[i]);
    char* dst = f->strings[used++];
    uint32_t n = 0;
    if (s) {
      for (; n < systrap::kTraceString - 1 && s[n]; ++n) dst[n] = s[n];
    }
    dst[n] = 0;
  }
}

// The failures that RLIMIT_NPROC, RLIMIT_NOFILE and RLIMIT_AS give (or the stub's own
// thread-slot limit, which also answers EAGAIN), for snare's word at the end of the run.
bool LimitedResult(uint64_t nr, int64_t result) {
  switch (result) {
    case -EAGAIN:
      return nr == __NR_clone || nr == __NR_clone3 || nr == __NR_fork || nr == __NR_vfork;
    case -EMFILE:
      return true;
    case -ENOMEM:
      return nr == __NR_mmap || nr == __NR_brk || nr == __NR_mremap;
    default:
      return false;
  }
}

// How a call reached the stub: by SIGSYS, or from a patched site asking the sentry or not.
enum class Entry { kTrap, kPatched, kPatchedInStub };

void Count(Slot* slot, uint64_t nr, int64_t result, uint64_t overhead, uint64_t in_syscall,
           Entry entry = Entry::kTrap) {
  if (nr >= static_cast<uint64_t>(abi::kSyscallLimit)) return;
  // Only this thread writes its slot's counters; each is one add instruction, which a
  // nested trap (guest signal handler) cannot split, so no lock prefix is needed.
  volatile systrap::TrapCounters& c = systrap::StatsAt(g_stub.header, SlotIndex(slot))->per_nr[nr];
  c.calls = c.calls + 1;
  if (result < 0 && result >= -4095) c.errors = c.errors + 1;
  c.overhead_ticks = c.overhead_ticks + overhead;
  c.syscall_ticks = c.syscall_ticks + in_syscall;
  if (entry != Entry::kTrap) c.patched = c.patched + 1;
  if (entry == Entry::kPatchedInStub) c.in_stub = c.in_stub + 1;
  if (LimitedResult(nr, result)) c.limited = c.limited + 1;
}

// Claims the slot's next frame for a request and writes the call into it; *depth is the
// frame's depth, which CloseFrame gives back.
Frame* OpenFrame(Slot* slot, uint32_t* depth, uint64_t nr, const uint64_t (&args)[6]) {
  uint32_t d = slot->depth;
  if (d >= systrap::kMaxDepth) d = 0;  // activations abandoned by siglongjmp
  slot->depth = d + 1;
  Frame* f = &slot->frames[d];
  f->nr = static_cast<uint32_t>(nr);
  for (int i = 0; i < 6; ++i) f->args[i] = args[i];
  if (g_stub.header->trace) CopyTraceStrings(f, abi::FindSyscall(nr));
  f->seq++;
  *depth = d;
  return f;
}

// A returned reply: its bytes copied out to the guest, its value.
int64_t CopyOut(uint64_t addr, const uint8_t* src, uint32_t len, int64_t value) {
  if (len > systrap::kCopyoutMax) len = 0;
  if (len && addr) memcpy(reinterpret_cast<void*>(addr), src, len);
  return value;
}

// A kActionReturn reply (its state word `reply`).
int64_t TakeReturned(const Frame* f, uint32_t reply) {
  if (!(reply & systrap::kStateCopyout)) return f->value;
  return CopyOut(f->copyout_addr, f->copyout, f->copyout_len, f->value);
}

// The request is over: its result for the sentry's trace, and the frame given back.
void CloseFrame(Slot* slot, Frame* f, uint32_t depth, int64_t result) {
  f->done_result = result;
  __atomic_store_n(&f->done_seq, f->seq, __ATOMIC_RELEASE);
  slot->depth = depth;
}

// The TSC when the trap path is timed (--stats), else 0: four clock reads are a tenth of a
// patched call.
uint64_t Clock() { return g_stub.header->timing ? ReadTsc() : 0; }

// Whether the stub runs this patched call itself, the sentry unasked: the guest's policy
// passes it, guards included (the sentry's own Decide, on the table the sentry copied into the
// shared region). The sentry does nothing for a passthrough but decide, count and trace it, and
// the kernel's stub-range policy holds the stub's `syscall` to the same policy, so a guest that
// forges the table or jumps past this check gains nothing it could not get by jumping to the
// instruction itself. Decided on the registers as the thread made the call, never on the
// shared frame. Trapped calls still all go to the sentry: its count of them is authoritative
// (a guest's own `syscall` instruction cannot hide from it).
bool PassesInStub(uint64_t nr, const uint64_t (&args)[6]) {
  return g_stub.header->stub_decides &&
         policy::Decide(GuestPolicy(), nr, args).kind == Verdict::kPassthrough;
}

// Whether the trapped code ran on the guest's alternate signal stack, by the kernel's own
// test (on_sig_stack). The frame's uc_stack holds the stack as set, not SS_ONSTACK.
bool OnAltStack(const KUcontext& uc) {
  const abi::KStack& ss = uc.uc_stack;
  if (static_cast<uint32_t>(ss.ss_flags) & abi::kSsAutodisarm) return false;
  return uc.mc.rsp > ss.ss_sp && uc.mc.rsp - ss.ss_sp <= ss.ss_size;
}

bool NeverReturns(uint64_t nr) {
  return nr == __NR_exit || nr == __NR_exit_group || nr == __NR_rt_sigreturn;
}

}  // namespace

extern "C" void StubSigsysHandler(int, KSiginfo* info, KUcontext* uc) {
  uint64_t t0 = Clock();
  if (info->si_code != kSysSeccomp) DieBySigsys();  // a SIGSYS the guest sent: SIG_DFL
  Slot* slot = CurrentSlot();
  if (!slot) Fatal("syscall trapped on a thread without a slot");
  const uint64_t nr = SyscallOfTornSite(uc->mc.rip, static_cast<uint32_t>(info->syscall));
  const uint64_t args[6] = {uc->mc.rdi, uc->mc.rsi, uc->mc.rdx, uc->mc.r10, uc->mc.r8, uc->mc.r9};
  uint32_t depth;
  Frame* f = OpenFrame(slot, &depth, nr, args);
  const bool tracing = g_stub.header->trace;

  const bool inproc = g_stub.mode == systrap::Mode::kInproc;
  const bool on_altstack = inproc && OnAltStack(*uc);
  Verdict verdict;
  uint32_t reply = 0;
  if (inproc) {
    verdict = InprocDecide(slot, depth, on_altstack);
    if (verdict.kind == Verdict::kBroker) verdict.kind = Verdict::kPassthrough;
  } else {
    reply = ExchangeWithSentry(slot, f, depth);
    verdict.kind = Verdict::kKill;
    switch (systrap::ActionOf(reply)) {
      case systrap::kActionPassthrough:
        verdict.kind = Verdict::kPassthrough;
        break;
      case systrap::kActionReturn:
        verdict.kind = Verdict::kReturn;
        verdict.value = f->value;
        break;
      default:
        break;
    }
  }

  int64_t result = 0;
  uint64_t t1 = Clock(), t2 = t1;
  const char* annotation = nullptr;
  switch (verdict.kind) {
    case Verdict::kPassthrough: {
      if (NeverReturns(nr)) {
        Count(slot, nr, 0, t1 - t0, 0);
        if (inproc && tracing) InprocTrace(slot, depth, on_altstack, false, 0, nullptr);
      }
      // The arguments as the thread made the call, not as the shared frame holds them now.
      result = ExecutePassthrough(nr, args, uc, depth);
      t2 = Clock();
      break;
    }
    case Verdict::kReturn:
      result = inproc ? CopyOut(verdict.copyout_addr, verdict.copyout, verdict.copyout_len,
                                verdict.value)
                      : TakeReturned(f, reply);
      annotation = result < 0 ? "denied" : "emulated";
      break;
    case Verdict::kKill:
      if (inproc && tracing) InprocTrace(slot, depth, on_altstack, false, 0, "killed");
      DieBySigsys();
    case Verdict::kBroker:
      break;
  }
  uc->mc.rax = static_cast<uint64_t>(result);
  if (!inproc && g_stub.header->patch) {
    NoteMappingCall(nr, args, result);
    // The sentry answered this site's call: its next ones may skip the signal.
    TryPatchSite(uc->mc.rip, nr);
  }

  Slot* now = CurrentSlot();
  if (now != slot) {
    // The child of a fork: the call is the parent's, counted there.
    now->depth = depth;
    return;
  }
  uint64_t t3 = Clock();
  Count(slot, nr, result, (t1 - t0) + (t3 - t2), t2 - t1);
  if (inproc) {
    if (tracing) InprocTrace(slot, depth, on_altstack, true, result, annotation);
    slot->depth = depth;
  } else {
    CloseFrame(slot, f, depth, result);
  }
}

// The registers StubPatchedEntry saved, lowest address first.
struct PatchedFrame {
  uint64_t nr, r9, r8, r10, rdx, rsi, rdi, rcx, rflags;
};

namespace {

// The passthrough syscall a patched site asked for (readlink of /proc/self/exe answered as
// the guest's own program, rt_sigaction and rt_sigprocmask fixed up, as the trap path does).
int64_t RunPatched(uint64_t nr, const uint64_t (&args)[6]) {
  if (nr == __NR_rt_sigaction) return SigactionFixed(args);
  if (nr == __NR_rt_sigprocmask) return SigprocmaskFixed(args);
  int64_t result;
  // (The nr test here: no call on the path of every other patched call.)
  if ((nr != __NR_readlink && nr != __NR_readlinkat) || !ReadlinkSelfExe(nr, args, &result)) {
    result =
        RawSyscall6(static_cast<long>(nr), args[0], args[1], args[2], args[3], args[4], args[5]);
  }
  return result;
}

}  // namespace

// A call from a patched site: no request at all where PassesInStub, else the same request as
// a trap, with no signal frame. Anyone may jump here (it is stub text); a number that is not
// Patchable() dies as a killed call would.
extern "C" int64_t StubPatchedCall(PatchedFrame* p) {
  const uint64_t t0 = Clock();
  const uint64_t nr = static_cast<uint32_t>(p->nr);
  if (!Patchable(nr) || g_stub.mode != systrap::Mode::kSystrap) DieBySigsys();
  Slot* slot = CurrentSlot();
  if (!slot) Fatal("patched call on a thread without a slot");
  const uint64_t args[6] = {p->rdi, p->rsi, p->rdx, p->r10, p->r8, p->r9};
  if (PassesInStub(nr, args)) {
    const uint64_t t1 = Clock();
    const int64_t result = RunPatched(nr, args);
    const uint64_t t2 = Clock();
    NoteMappingCall(nr, args, result);
    Count(slot, nr, result, t1 - t0, t2 - t1, Entry::kPatchedInStub);
    return result;
  }
  uint32_t depth;
  Frame* f = OpenFrame(slot, &depth, nr, args);
  const uint32_t reply = ExchangeWithSentry(slot, f, depth);

  int64_t result = 0;
  const uint64_t t1 = Clock();
  uint64_t t2 = t1;
  switch (systrap::ActionOf(reply)) {
    case systrap::kActionPassthrough:
      result = RunPatched(nr, args);
      t2 = Clock();
      NoteMappingCall(nr, args, result);
      break;
    case systrap::kActionReturn:
      result = TakeReturned(f, reply);
      break;
    default:
      DieBySigsys();
  }
  const uint64_t t3 = Clock();
  Count(slot, nr, result, (t1 - t0) + (t3 - t2), t2 - t1, Entry::kPatched);
  CloseFrame(slot, f, depth, result);
  return result;
}

}  // namespace snare::stub
