// The stub's side of the per-thread slot: claiming one, finding it from a signal handler
// (GS base), and the request/reply exchange with the sentry (spin, then futex).
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_SLOT_CLIENT_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_SLOT_CLIENT_H_

#include <stdint.h>

#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {

// How the stub tells which CPU it runs on, cheapest first.
enum class CpuSource { kRdpid, kRdtscp, kLsl, kNone };

struct StubGlobals {
  systrap::Header* header = nullptr;
  bool fsgsbase = false;  // rdgsbase is usable
  CpuSource cpu_source = CpuSource::kNone;
  systrap::Mode mode = systrap::Mode::kSystrap;
};

// Picks the cheapest CpuSource this CPU and kernel offer.
CpuSource FindCpuSource();
extern StubGlobals g_stub;

// The calling thread's slot (GS base; without rdgsbase, the slot's self pointer read
// through %gs), or nullptr when GS names no slot. Only after the thread has claimed one.
systrap::Slot* CurrentSlot();
uint32_t SlotIndex(const systrap::Slot* slot);

// Claims a free slot for the calling thread and points GS at it. Exits the process when
// the sandbox is out of slots.
systrap::Slot* ClaimSlot();

// Whether a slot is free for one more thread, waiting up to ~200 ms for the sentry to free
// those of dead threads. Checked before a clone, so that a guest past 1024 threads gets
// EAGAIN from clone, as at a task limit, instead of a child that cannot claim a slot.
bool SlotAvailable();
// Takes over slot `index` after execve (the pre-exec image held it).
systrap::Slot* AdoptSlot(int64_t index);

// Hands the syscall in `frame` (already filled, at `depth`) to the sentry and waits for the
// reply; returns the reply's state word.
uint32_t ExchangeWithSentry(systrap::Slot* slot, systrap::Frame* frame, uint32_t depth);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_SLOT_CLIENT_H_
