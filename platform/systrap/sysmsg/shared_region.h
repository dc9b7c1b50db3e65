// Layout of the memory shared between every guest process's stub and the sentry (gVisor's
// systrap calls its equivalent "sysmsg").
//
// Freestanding (the stub includes it). Everything here is writable by the guest: the
// sentry treats every value it reads from this region as untrusted input.
#ifndef SNARE_PLATFORM_SYSTRAP_SYSMSG_SHARED_REGION_H_
#define SNARE_PLATFORM_SYSTRAP_SYSMSG_SHARED_REGION_H_

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/syscall_table.h"
#include "policy/evaluator.h"
#include "policy/policy_table.h"
#include "trace/trace_line.h"

namespace snare::systrap {

// Fixed addresses: the stub is linked at kStubBase (non-PIE) so the seccomp filter's
// instruction-pointer range stays valid across guest execve.
inline constexpr uint64_t kStubBase = 0x7e0000000000ull;
inline constexpr uint64_t kStubReserve = 0x40000000ull;  // address space the stub may use
inline constexpr uint64_t kSharedBase = 0x7e0100000000ull;
inline constexpr uint64_t kFiberBase = 0x7e0200000000ull;  // inproc fiber stacks (private)

// File descriptors every guest process holds. The guest cannot close or replace them:
// the policy refuses it and the seccomp filter kills a stub-range attempt.
inline constexpr int kTraceFd = 1020;   // inproc --trace output
inline constexpr int kStubFd = 1021;    // sealed memfd holding the stub executable
inline constexpr int kSharedFd = 1022;  // memfd holding this region
inline constexpr int kFirstReservedFd = kTraceFd;
inline constexpr int kLastReservedFd = kSharedFd;
// With --notify only, in the first guest process only: a socket to the sentry, on which the
// stub hands over its seccomp listener before the guest runs, then closes.
inline constexpr int kNotifySocketFd = 1023;

inline constexpr uint64_t kMagic = 0x31657261'6e73ull;  // "snare1"
inline constexpr uint32_t kVersion = 8;
inline constexpr uint32_t kMaxSlots = 1024;
inline constexpr uint32_t kMaxDepth = 8;      // nested traps (guest signal handlers)
inline constexpr uint32_t kMaxFilter = 4096;  // BPF instructions
inline constexpr uint32_t kTraceString = trace::kPathPrefixBytes;  // per path argument
inline constexpr uint32_t kCopyoutMax = 512;  // bytes the sentry may hand back per reply
inline constexpr uint64_t kFiberStackSize = 64 * 1024;

enum class Mode : uint32_t { kSystrap = 1, kInproc = 2 };

// Frame::state is one futex word: the phase of the exchange, and with it what each side
// needs first, so that a call moves one cache line each way. A request carries the CPU the
// thread runs on (and its reply keeps it); a reply carries its action and whether bytes are
// copied out.
enum FrameState : uint32_t {
  kFrameIdle = 0,
  kFrameRequest = 1,  // written by the stub
  kFrameReply = 2,    // written by the sentry
};
inline constexpr uint32_t kPhaseMask = 0x3;
inline constexpr uint32_t kActionShift = 2;  // reply: Action
inline constexpr uint32_t kActionMask = 0x3u << kActionShift;
inline constexpr uint32_t kStateCopyout = 1u << 4;      // reply: copy out copyout_len bytes
inline constexpr uint32_t kStateStubWaiting = 1u << 5;  // the stub sleeps on the word
inline constexpr uint32_t kCpuShift = 16;               // request: the thread's CPU

// Frame::action: what the stub does with the trapped syscall.
enum Action : uint32_t {
  kActionPassthrough = 1,  // execute it in the guest (with the stub's fixups)
  kActionReturn = 2,       // return `value` (after copying out `copyout_len` bytes)
  kActionKill = 3,         // kill the guest process with SIGSYS
};

// The CPU field when the stub cannot read its CPU (no rdpid, rdtscp or CPU segment).
inline constexpr uint32_t kCpuUnknown = 0xffffu;

inline constexpr uint32_t PhaseOf(uint32_t state) { return state & kPhaseMask; }
inline constexpr uint32_t ActionOf(uint32_t state) { return (state & kActionMask) >> kActionShift; }
inline constexpr uint32_t CpuOf(uint32_t state) { return state >> kCpuShift; }
inline constexpr uint32_t RequestState(uint32_t cpu) {
  return kFrameRequest | ((cpu < kCpuUnknown ? cpu : kCpuUnknown) << kCpuShift);
}
inline constexpr uint32_t ReplyState(uint32_t action, bool copyout) {
  return kFrameReply | (action << kActionShift) | (copyout ? kStateCopyout : 0);
}

// Slot::state
enum SlotState : uint32_t {
  kSlotFree = 0,
  kSlotClaimed = 1,
  kSlotExiting = 2,  // the thread made exit/exit_group; the sentry frees it once dead
};

// The first cache line is all that crosses on a call that copies nothing out: the state
// word, the request and the reply's value.
struct alignas(64) Frame {
  uint32_t state;  // see FrameState (futex word)
  uint32_t nr;
  uint64_t args[6];
  int64_t value;  // reply
  // Second line: what only tracing and copying out need.
  uint64_t seq;          // bumped by the stub per request
  uint32_t copyout_len;  // reply with kStateCopyout
  uint32_t reserved;
  uint64_t copyout_addr;          // reply with kStateCopyout
  char strings[2][kTraceString];  // prefixes of the first two kPath arguments (trace only)
  uint8_t copyout[kCopyoutMax];
  // Completion of the latest passthrough at this depth (trace only), on a line of its own
  // that only the stub writes.
  alignas(64) uint64_t done_seq;
  int64_t done_result;
};
static_assert(offsetof(Frame, seq) == 64, "the request and the reply share the first line");

// The first line changes only when a thread claims, leaves or nests a call, so the
// sentry's per-call reads of it hit its own cache.
struct alignas(4096) Slot {
  uint32_t state;    // SlotState, CAS by the stub to claim
  uint32_t pending;  // set by the stub when a frame above depth 0 enters kFrameRequest
  int32_t tid;       // guest-visible ids (reported by the stub)
  int32_t tgid;
  int32_t host_tid;     // tid as the guest's /proc shows it (0 if unknown)
  uint64_t generation;  // bumped on each claim
  // The slot's own address, read through %gs where rdgsbase is missing (arch_prctl's
  // ARCH_GET_GS costs a syscall, 4.5 us in a PVM guest). The guest may rewrite it: the stub
  // checks that it names a slot, which gives no more than wrgsbase does.
  uint64_t self;
  // The stub's own line: written twice a call, read by the sentry only while it idles.
  alignas(64) uint32_t depth;  // number of live handler activations
  Frame frames[kMaxDepth];
};

// Written by the stub of the slot's thread only.
struct TrapCounters {
  uint64_t calls;
  uint64_t errors;
  uint64_t overhead_ticks;  // TSC ticks in the trap path, excluding the syscall itself
  uint64_t syscall_ticks;   // TSC ticks executing the passthrough syscall
  uint64_t patched;         // of `calls`, those that came through a patched site (no signal)
  uint64_t in_stub;         // of `patched`, those the stub ran itself, the sentry unasked
  uint64_t limited;         // results a resource limit gives: EAGAIN from clone, fork and
                            // vfork, EMFILE, ENOMEM from the memory calls
};

struct SlotStats {
  TrapCounters per_nr[abi::kSyscallLimit];
};

struct alignas(4096) Header {
  uint64_t magic;
  uint32_t version;
  Mode mode;
  uint32_t spin_iterations;  // stub and sentry spin this often before futex sleep
  uint32_t crowded;          // the sentry found more runnable tasks than CPUs: no stub spins
  uint32_t trace;            // inproc: write --trace lines to kTraceFd
  int32_t sentry_pid;        // for liveness checks by the stub
  uint32_t doorbell;         // futex word the sentry sleeps on
  uint32_t sentry_sleeping;
  uint32_t slot_hint;        // where the next claim starts scanning
  uint32_t slots_high;       // one past the highest slot ever claimed
  uint64_t stub_text_start;  // the IP range the filter allows
  uint64_t stub_text_end;
  uint32_t notify;  // install the filter with a listener, sent on kNotifySocketFd
  uint32_t patch;   // 0, or rewrite `mov $nr, %eax; syscall` sites at their patch-th trap
  uint32_t timing;  // the stub times its trap path into SlotStats (--stats)
  // Patched calls the policy passes, guards included, run from the stub without asking the
  // sentry: the kernel's stub-range policy holds the stub's syscall to that same policy.
  uint32_t stub_decides;
  uint32_t filter_len;
  sock_filter filter[kMaxFilter];
  // inproc decides with it, and systrap's stub for patched calls (the sentry keeps its own).
  policy::PolicyTable policy;
};

inline constexpr uint64_t kSlotsOffset = (sizeof(Header) + 4095) & ~4095ull;
inline constexpr uint64_t kStatsOffset = kSlotsOffset + sizeof(Slot) * kMaxSlots;
inline constexpr uint64_t kRegionSize =
    (kStatsOffset + sizeof(SlotStats) * kMaxSlots + 4095) & ~4095ull;

inline constexpr uint64_t kFiberRegionSize = kFiberStackSize * kMaxSlots * kMaxDepth;

// Address ranges the guest may not map over, unmap, reprotect or advise.
inline constexpr policy::ProtectedRange kProtectedRanges[] = {
    {kStubBase, kStubBase + kStubReserve},
    {kSharedBase, kSharedBase + kRegionSize},
    {kFiberBase, kFiberBase + kFiberRegionSize},
};
inline constexpr int kProtectedRangeCount = 3;

// Views over a mapped region (base is where this process mapped it).
inline Header* HeaderAt(void* base) { return static_cast<Header*>(base); }
inline Slot* SlotAt(void* base, uint32_t index) {
  return reinterpret_cast<Slot*>(static_cast<char*>(base) + kSlotsOffset) + index;
}
inline SlotStats* StatsAt(void* base, uint32_t index) {
  return reinterpret_cast<SlotStats*>(static_cast<char*>(base) + kStatsOffset) + index;
}

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SYSMSG_SHARED_REGION_H_
