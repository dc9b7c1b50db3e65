// The sentry's request intake: everything it reads from the shared region, which the guest
// can write. The input is a few control bytes, then writes of guest bytes into the region's
// header, a slot (slot 0), a third slot (slot 2) and slot 0's counters. The sentry collects
// traps, takes and answers slot 0's requests and sums the counters, the way its dispatcher
// does; then slot 1, another thread's well-formed request, must still be taken and answered
// ("the sentry still serves the other threads").
#include <asm/unistd_64.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "fuzz/fuzz_bytes.h"
#include "platform/platform.h"
#include "platform/systrap/shared_region_file.h"
#include "platform/systrap/sysmsg/shared_region.h"
#include "platform/systrap/systrap_machine.h"
#include "policy/verdict.h"

namespace snare::systrap {
namespace {

using snare::fuzz::Take;

// The header up to the filter: the systrap sentry reads none of the rest (the stub's).
constexpr size_t kHeaderBytes = offsetof(Header, filter);
constexpr int32_t kHonestTid = 4242;

// A fresh region and machine per input: nothing a guest wrote carries over.
struct Region {
  void* base;
  std::unique_ptr<SystrapMachine> machine;
};

Region NewRegion() {
  auto file = SharedRegionFile::Create(Mode::kSystrap);
  if (!file) __builtin_trap();
  void* base = file->base();
  // No stub memfd: the intake never needs it. A spin count the guest cannot change.
  return {base, std::make_unique<SystrapMachine>(std::move(*file), -1, Mode::kSystrap, -1, 100,
                                                 /*trace=*/true)};
}

// What the stub writes for a getppid() at depth 0 on a freshly claimed slot.
void WriteHonestRequest(Slot* s) {
  s->state = kSlotClaimed;
  s->tid = kHonestTid;
  s->tgid = kHonestTid;
  s->generation = 7;
  s->frames[0].nr = __NR_getppid;
  s->frames[0].seq = 1;
  __atomic_store_n(&s->frames[0].state, RequestState(1), __ATOMIC_RELEASE);
}

// Runs a Task's turn over one slot: every request it takes is answered with `reply`. The
// Task's yield is where the guest thread would run again: here it leaves, so that the
// context reports it gone instead of waiting for a request that never comes.
std::vector<platform::SyscallRequest> Serve(SystrapMachine& m, Slot* slot,
                                            const platform::TrapSource& source,
                                            const policy::Verdict& reply) {
  std::vector<platform::SyscallRequest> taken;
  auto ctx = m.NewContext(source, [slot] {
    __atomic_store_n(&slot->state, 0u, __ATOMIC_RELEASE);
    return true;
  });
  platform::Event e = ctx->Switch(nullptr);
  while (e.reason == platform::StopReason::kSyscall) {
    const platform::SyscallRequest& r = e.syscall;
    if (r.depth >= kMaxDepth) __builtin_trap();
    for (const auto& s : r.strings) {
      if (strnlen(s, sizeof(s)) == sizeof(s)) __builtin_trap();  // not terminated
    }
    taken.push_back(r);
    // Each answer turns a request into a reply: more than one per frame is a loop.
    if (taken.size() > kMaxDepth) __builtin_trap();
    e = ctx->Switch(&reply);
  }
  return taken;
}

}  // namespace
}  // namespace snare::systrap

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace snare::systrap;
  using snare::policy::Verdict;
  Region region = NewRegion();
  SystrapMachine& m = *region.machine;
  Header* h = HeaderAt(region.base);
  Slot* fuzzed = SlotAt(region.base, 0);
  Slot* honest = SlotAt(region.base, 1);
  Slot* third = SlotAt(region.base, 2);
  SlotStats* stats = StatsAt(region.base, 0);

  const auto flags = Take<uint8_t>(data, size);
  static uint8_t copyout[kCopyoutMax * 2];
  Verdict reply;
  reply.kind = static_cast<Verdict::Kind>(flags % 4);
  reply.value = Take<int64_t>(data, size);
  reply.copyout_len = Take<uint16_t>(data, size) % sizeof(copyout);
  reply.copyout_addr = 0x10000;
  reply.copyout = copyout;
  const auto done_depth = Take<uint32_t>(data, size);
  const auto done_seq = Take<uint64_t>(data, size);

  // The stub of a correct thread claimed slot 1 and raised slots_high past it.
  WriteHonestRequest(honest);
  h->slots_high = 3;
  // The guest's writes: WHERE, OFFSET (16 bits), LENGTH, then the bytes.
  while (size >= 4) {
    const auto where = Take<uint8_t>(data, size);
    const auto offset = Take<uint16_t>(data, size);
    size_t len = Take<uint8_t>(data, size);
    if (len > size) len = size;
    uint8_t* target;
    size_t target_size;
    switch (where % 4) {
      case 0:
        target = reinterpret_cast<uint8_t*>(h);
        target_size = kHeaderBytes;
        break;
      case 1:
        target = reinterpret_cast<uint8_t*>(fuzzed);
        target_size = sizeof(Slot);
        break;
      case 2:
        target = reinterpret_cast<uint8_t*>(third);
        target_size = sizeof(Slot);
        break;
      default:
        target = reinterpret_cast<uint8_t*>(stats);
        target_size = sizeof(SlotStats);
        break;
    }
    const size_t at = offset % target_size;
    if (len > target_size - at) len = target_size - at;
    std::memcpy(target + at, data, len);
    data += len;
    size -= len;
  }

  // A second round after the reap interval's rescan, where the guest's bytes may have hidden
  // slot 1 from the first.
  bool served_honest = false;
  for (int round = 0; round < 2 && !served_honest; ++round) {
    if (round) m.FindHiddenSlots();
    std::vector<snare::platform::TrapSource> ready;
    m.CollectTraps(&ready);
    for (const auto& source : ready) {
      if (source.thread >= kMaxSlots) __builtin_trap();
      Slot* slot = SlotAt(region.base, source.thread);
      if (slot == honest) {
        auto taken = Serve(m, slot, source, {Verdict::kReturn, 42});
        // Its one request, as its stub wrote it.
        if (taken.size() != 1 || taken[0].nr != __NR_getppid || taken[0].tid != kHonestTid ||
            taken[0].depth != 0) {
          __builtin_trap();
        }
        const uint32_t state = __atomic_load_n(&slot->frames[0].state, __ATOMIC_ACQUIRE);
        if (PhaseOf(state) != kFrameReply || ActionOf(state) != kActionReturn ||
            slot->frames[0].value != 42) {
          __builtin_trap();
        }
        served_honest = true;
      } else {
        Serve(m, slot, source, reply);
        int64_t result;
        auto ctx = m.NewContext(source, [] { return true; });
        (void)ctx->Completed(done_depth, done_seq, &result);
      }
    }
  }
  if (!served_honest) __builtin_trap();  // the guest's bytes kept another thread waiting
  // Counters reads 20 KiB a slot below SlotsHigh() (at most kMaxSlots): a few slots here, or
  // faulting in pages of zeros would take most of the fuzzer's time.
  if ((flags & 4) && h->slots_high <= 4) (void)m.Counters();

  return 0;
}
