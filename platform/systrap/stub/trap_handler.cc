#include "platform/systrap/stub/trap_handler.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>

#include "abi/syscall_table.h"
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

void Count(Slot* slot, uint64_t nr, int64_t result, uint64_t overhead, uint64_t in_syscall,
           bool patched = false) {
  if (nr >= static_cast<uint64_t>(abi::kSyscallLimit)) return;
  // Only this thread writes its slot's counters; each is one add instruction, which a
  // nested trap (guest signal handler) cannot split, so no lock prefix is needed.
  volatile systrap::TrapCounters& c = systrap::StatsAt(g_stub.header, SlotIndex(slot))->per_nr[nr];
  c.calls = c.calls + 1;
  if (result < 0 && result >= -4095) c.errors = c.errors + 1;
  c.overhead_ticks = c.overhead_ticks + overhead;
  c.syscall_ticks = c.syscall_ticks + in_syscall;
  if (patched) c.patched = c.patched + 1;
}

bool NeverReturns(uint64_t nr) {
  return nr == __NR_exit || nr == __NR_exit_group || nr == __NR_rt_sigreturn;
}

}  // namespace

extern "C" void StubSigsysHandler(int, KSiginfo* info, KUcontext* uc) {
  uint64_t t0 = ReadTsc();
  if (info->si_code != kSysSeccomp) DieBySigsys();  // a SIGSYS the guest sent: SIG_DFL
  Slot* slot = CurrentSlot();
  if (!slot) Fatal("syscall trapped on a thread without a slot");
  uint32_t depth = slot->depth;
  if (depth >= systrap::kMaxDepth) depth = 0;  // activations abandoned by siglongjmp
  slot->depth = depth + 1;

  const uint64_t nr = static_cast<uint32_t>(info->syscall);
  Frame* f = &slot->frames[depth];
  f->nr = nr;
  f->args[0] = uc->mc.rdi;
  f->args[1] = uc->mc.rsi;
  f->args[2] = uc->mc.rdx;
  f->args[3] = uc->mc.r10;
  f->args[4] = uc->mc.r8;
  f->args[5] = uc->mc.r9;
  f->rip = uc->mc.rip;
  bool tracing = g_stub.header->trace;
  if (tracing) CopyTraceStrings(f, abi::FindSyscall(nr));
  f->seq++;

  const bool inproc = g_stub.mode == systrap::Mode::kInproc;
  Verdict verdict;
  if (inproc) {
    verdict = InprocDecide(slot, depth, nr, f->args);
    if (verdict.kind == Verdict::kBroker) verdict.kind = Verdict::kPassthrough;
  } else {
    ExchangeWithSentry(slot, f);
    verdict.kind = Verdict::kKill;
    switch (f->action) {
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
  uint64_t t1 = ReadTsc(), t2 = t1;
  const char* annotation = nullptr;
  switch (verdict.kind) {
    case Verdict::kPassthrough: {
      if (NeverReturns(nr)) {
        Count(slot, nr, 0, t1 - t0, 0);
        if (inproc && tracing) InprocTrace(slot, depth, false, 0, nullptr);
      }
      uint64_t args[6];
      for (int i = 0; i < 6; ++i) args[i] = f->args[i];
      result = ExecutePassthrough(nr, args, uc, depth);
      t2 = ReadTsc();
      break;
    }
    case Verdict::kReturn: {
      result = verdict.value;
      uint32_t len = inproc ? verdict.copyout_len : f->copyout_len;
      uint64_t addr = inproc ? verdict.copyout_addr : f->copyout_addr;
      const uint8_t* src = inproc ? verdict.copyout : f->copyout;
      if (len > systrap::kCopyoutMax) len = 0;
      if (len && addr) memcpy(reinterpret_cast<void*>(addr), src, len);
      annotation = result < 0 ? "denied" : "emulated";
      break;
    }
    case Verdict::kKill:
      if (inproc && tracing) InprocTrace(slot, depth, false, 0, "killed");
      DieBySigsys();
    case Verdict::kBroker:
      break;
  }
  uc->mc.rax = static_cast<uint64_t>(result);
  // The sentry answered this site's call: its next ones may skip the signal.
  if (!inproc && g_stub.header->patch && verdict.kind != Verdict::kKill) {
    TryPatchSite(uc->mc.rip, nr);
  }

  Slot* now = CurrentSlot();
  if (now != slot) {
    // The child of a fork: the call is the parent's, counted there.
    now->depth = depth;
    return;
  }
  uint64_t t3 = ReadTsc();
  Count(slot, nr, result, (t1 - t0) + (t3 - t2), t2 - t1);
  if (inproc) {
    if (tracing) InprocTrace(slot, depth, true, result, annotation);
  } else {
    f->done_result = result;
    __atomic_store_n(&f->done_seq, f->seq, __ATOMIC_RELEASE);
  }
  slot->depth = depth;
}

// The registers StubPatchedEntry saved, lowest address first.
struct PatchedFrame {
  uint64_t nr, r9, r8, r10, rdx, rsi, rdi, rcx, rflags;
};

// A call from a patched site: the same request as a trap, with no signal frame. Anyone may
// jump here (it is stub text); a number that is not Patchable() dies as a killed call would.
extern "C" int64_t StubPatchedCall(PatchedFrame* p) {
  const uint64_t t0 = ReadTsc();
  const uint64_t nr = static_cast<uint32_t>(p->nr);
  if (!Patchable(nr) || g_stub.mode != systrap::Mode::kSystrap) DieBySigsys();
  Slot* slot = CurrentSlot();
  if (!slot) Fatal("patched call on a thread without a slot");
  uint32_t depth = slot->depth;
  if (depth >= systrap::kMaxDepth) depth = 0;
  slot->depth = depth + 1;
  Frame* f = &slot->frames[depth];
  f->nr = nr;
  f->args[0] = p->rdi;
  f->args[1] = p->rsi;
  f->args[2] = p->rdx;
  f->args[3] = p->r10;
  f->args[4] = p->r8;
  f->args[5] = p->r9;
  f->rip = p->rcx;
  if (g_stub.header->trace) CopyTraceStrings(f, abi::FindSyscall(nr));
  f->seq++;
  ExchangeWithSentry(slot, f);

  int64_t result = 0;
  const uint64_t t1 = ReadTsc();
  uint64_t t2 = t1;
  switch (f->action) {
    case systrap::kActionPassthrough:
      result =
          Sys(static_cast<long>(nr), static_cast<long>(f->args[0]), static_cast<long>(f->args[1]),
              static_cast<long>(f->args[2]), static_cast<long>(f->args[3]),
              static_cast<long>(f->args[4]), static_cast<long>(f->args[5]));
      t2 = ReadTsc();
      break;
    case systrap::kActionReturn: {
      result = f->value;
      uint32_t len = f->copyout_len;
      if (len > systrap::kCopyoutMax) len = 0;
      if (len && f->copyout_addr) memcpy(reinterpret_cast<void*>(f->copyout_addr), f->copyout, len);
      break;
    }
    default:
      DieBySigsys();
  }
  const uint64_t t3 = ReadTsc();
  Count(slot, nr, result, (t1 - t0) + (t3 - t2), t2 - t1, /*patched=*/true);
  f->done_result = result;
  __atomic_store_n(&f->done_seq, f->seq, __ATOMIC_RELEASE);
  slot->depth = depth;
  return result;
}

}  // namespace snare::stub
