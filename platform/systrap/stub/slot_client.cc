#include "platform/systrap/stub/slot_client.h"

#include <asm-generic/errno.h>
#include <asm/prctl.h>
#include <asm/unistd.h>
#include <linux/futex.h>

#include "platform/systrap/stub/inproc_sentry.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/stub_rodata.h"
#include "platform/systrap/stub/stub_runtime.h"

namespace snare::stub {

using systrap::Frame;
using systrap::Header;
using systrap::Slot;

StubGlobals g_stub;

namespace {

template <typename T>
T Load(const T& v) {
  return __atomic_load_n(&v, __ATOMIC_ACQUIRE);
}
template <typename T>
void Store(T& v, T x) {
  __atomic_store_n(&v, x, __ATOMIC_RELEASE);
}

void SetGsBase(Slot* slot) {
  long r = Sys(__NR_arch_prctl, ARCH_SET_GS, P(slot));
  if (r < 0) Fatal("cannot set GS base", nullptr, r);
}

// The thread's id in the sentry's pid namespace, from /proc/thread-self ("PID/task/TID").
int32_t HostTid() {
  char buf[64];
  long n = Sys(__NR_readlink, RodataAddress(systrap::kRodataThreadSelf), P(buf), sizeof(buf) - 1);
  if (n <= 0) return 0;
  buf[n] = 0;
  const char* last = buf;
  for (long i = 0; i < n; ++i) {
    if (buf[i] == '/') last = buf + i + 1;
  }
  int64_t v = ParseDec(last);
  return v > 0 && v < (int64_t{1} << 30) ? static_cast<int32_t>(v) : 0;
}

// The slot now serves the calling thread: its ids, and GS pointing at it.
void BindToThisThread(Slot* slot) {
  slot->tid = static_cast<int32_t>(Sys(__NR_gettid));
  slot->tgid = static_cast<int32_t>(Sys(__NR_getpid));
  slot->host_tid = HostTid();
  slot->self = reinterpret_cast<uint64_t>(slot);
  slot->depth = 0;
  SetGsBase(slot);
}

void InitSlot(Slot* slot) {
  slot->generation++;
  for (auto& f : slot->frames) Store(f.state, uint32_t{systrap::kFrameIdle});
  Store(slot->pending, 0u);
  BindToThisThread(slot);
}

void NoteHighWater(Header* h, uint32_t index) {
  uint32_t cur = Load(h->slots_high);
  while (cur < index + 1 && !__atomic_compare_exchange_n(&h->slots_high, &cur, index + 1, false,
                                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
  }
}

// Returns true when the sentry was asleep and had to be woken.
bool WakeSentry(Header* h) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (!Load(h->sentry_sleeping)) return false;
  __atomic_fetch_add(&h->doorbell, 1, __ATOMIC_SEQ_CST);
  Sys(__NR_futex, P(&h->doorbell), FUTEX_WAKE, 1);
  return true;
}

// Spinning threads yield now and then: the scheduler tends to wake the peer on the waker's
// CPU, where a spinner would keep it waiting for a whole time slice.
constexpr uint32_t kSpinsPerYield = 256;

// All slots are held: the sentry frees those of dead threads when woken. Waits up to 1 ms,
// in a futex wait on the shared region, not nanosleep: the filter lets the stub's text wait
// only there.
void WaitForFreedSlot(Header* h) {
  WakeSentry(h);
  struct {
    long sec, nsec;
  } ts = {0, 1000000};
  const uint32_t hint = Load(h->slot_hint);
  Sys(__NR_futex, P(&h->slot_hint), FUTEX_WAIT, hint, P(&ts));
}

}  // namespace

CpuSource FindCpuSource() {
  if (HasRdpid()) return CpuSource::kRdpid;
  if (HasRdtscp()) return CpuSource::kRdtscp;
  uint32_t cpu;
  return ReadCpuLsl(&cpu) ? CpuSource::kLsl : CpuSource::kNone;
}

Slot* CurrentSlot() {
  uint64_t gs;
  if (g_stub.fsgsbase) {
    __asm__ volatile("rdgsbase %0" : "=r"(gs));
  } else {
    // Every thread that calls this has claimed a slot, so GS is set; only arch_prctl can
    // change it here, and the filter lets that point GS into the shared region alone.
    __asm__ volatile("movq %%gs:%c1, %0" : "=r"(gs) : "i"(offsetof(Slot, self)));
  }
  uint64_t first = reinterpret_cast<uint64_t>(systrap::SlotAt(g_stub.header, 0));
  uint64_t end = reinterpret_cast<uint64_t>(systrap::SlotAt(g_stub.header, systrap::kMaxSlots));
  // The guest can write GS with wrgsbase; only trust a value that names a slot.
  if (gs < first || gs >= end || (gs - first) % sizeof(Slot)) return nullptr;
  return reinterpret_cast<Slot*>(gs);
}

uint32_t SlotIndex(const Slot* slot) {
  return static_cast<uint32_t>(slot - systrap::SlotAt(g_stub.header, 0));
}

bool SlotAvailable() {
  Header* h = g_stub.header;
  for (int attempt = 0; attempt < 200; ++attempt) {
    const uint32_t start = Load(h->slot_hint) % systrap::kMaxSlots;
    for (uint32_t i = 0; i < systrap::kMaxSlots; ++i) {
      const uint32_t index = (start + i) % systrap::kMaxSlots;
      if (Load(systrap::SlotAt(h, index)->state) == systrap::kSlotFree) return true;
    }
    WaitForFreedSlot(h);
  }
  return false;
}

Slot* ClaimSlot() {
  Header* h = g_stub.header;
  for (int attempt = 0; attempt < 2000; ++attempt) {
    uint32_t start = Load(h->slot_hint) % systrap::kMaxSlots;
    for (uint32_t i = 0; i < systrap::kMaxSlots; ++i) {
      uint32_t index = (start + i) % systrap::kMaxSlots;
      Slot* slot = systrap::SlotAt(h, index);
      uint32_t expected = systrap::kSlotFree;
      if (Load(slot->state) != expected) continue;
      if (__atomic_compare_exchange_n(&slot->state, &expected, uint32_t{systrap::kSlotClaimed},
                                      false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        Store(h->slot_hint, index + 1);
        NoteHighWater(h, index);
        if (g_stub.mode == systrap::Mode::kInproc) InprocResetSlot(index);
        InitSlot(slot);
        return slot;
      }
    }
    WaitForFreedSlot(h);
  }
  Fatal("out of thread slots (more than 1024 live guest threads)");
}

Slot* AdoptSlot(int64_t index) {
  if (index < 0 || index >= systrap::kMaxSlots) Fatal("bad slot index after execve");
  Slot* slot = systrap::SlotAt(g_stub.header, static_cast<uint32_t>(index));
  uint32_t depth = slot->depth;
  // The execve that brought us here was the request at depth-1: it succeeded.
  if (depth >= 1 && depth <= systrap::kMaxDepth) {
    Frame& f = slot->frames[depth - 1];
    f.done_result = 0;
    Store(f.done_seq, f.seq);
  }
  Store(slot->state, uint32_t{systrap::kSlotClaimed});
  if (g_stub.mode == systrap::Mode::kInproc) InprocResetSlot(static_cast<uint32_t>(index));
  BindToThisThread(slot);
  return slot;
}

uint32_t ExchangeWithSentry(Slot* slot, Frame* f, uint32_t depth) {
  Header* h = g_stub.header;
  // Where this thread will run its own code next: a sentry on that CPU should not spin.
  uint32_t cpu = systrap::kCpuUnknown;
  switch (g_stub.cpu_source) {
    case CpuSource::kRdpid:
      cpu = ReadCpuRdpid();
      break;
    case CpuSource::kRdtscp:
      cpu = ReadCpu();
      break;
    case CpuSource::kLsl:
      if (!ReadCpuLsl(&cpu)) cpu = systrap::kCpuUnknown;
      break;
    case CpuSource::kNone:
      break;
  }
  Store(f->state, systrap::RequestState(cpu));
  // The sentry watches every slot's first frame; a nested request it finds by this flag.
  if (depth > 0) Store(slot->pending, 1u);
  // A sentry woken just now may have been queued on this CPU: let it run first.
  if (WakeSentry(h)) Sys(__NR_sched_yield);

  // On crowded CPUs a spinning stub only delays the sentry it waits for.
  uint32_t spins = Load(h->crowded) ? 0 : Load(h->spin_iterations);
  for (uint32_t i = 0; i < spins; ++i) {
    const uint32_t s = Load(f->state);
    if (systrap::PhaseOf(s) == systrap::kFrameReply) return s;
    if (i % kSpinsPerYield == kSpinsPerYield - 1) Sys(__NR_sched_yield);
    CpuRelax();
  }
  for (;;) {
    uint32_t s = Load(f->state);
    if (systrap::PhaseOf(s) == systrap::kFrameReply) return s;
    // The sentry swaps in its reply and wakes us if it finds this bit in the old word.
    if (!(s & systrap::kStateStubWaiting)) {
      if (!__atomic_compare_exchange_n(&f->state, &s, s | systrap::kStateStubWaiting, false,
                                       __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE)) {
        continue;
      }
      s |= systrap::kStateStubWaiting;
    }
    struct {
      long sec, nsec;
    } timeout = {1, 0};
    long r = Sys(__NR_futex, P(&f->state), FUTEX_WAIT, s, P(&timeout));
    if (r == -ETIMEDOUT && h->sentry_pid > 0 && Sys(__NR_kill, h->sentry_pid, 0) == -ESRCH) {
      Fatal("the sentry is gone", nullptr, 0, 128 + 9);
    }
  }
}

}  // namespace snare::stub
