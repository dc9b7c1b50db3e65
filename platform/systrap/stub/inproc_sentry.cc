#include "platform/systrap/stub/inproc_sentry.h"

#include <asm/unistd.h>
#include <linux/mman.h>

#include "platform/systrap/stub/guest_policy.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "policy/evaluator.h"
#include "trace/trace_line.h"

namespace snare::stub {
namespace {

using systrap::Frame;
using systrap::kMaxDepth;
using systrap::kMaxSlots;
using systrap::Slot;

// Boost.Context's fcontext primitives (libboost_context.a, plain assembly).
struct Transfer {
  void* fctx;
  void* data;
};
extern "C" Transfer jump_fcontext(void* to, void* data);
extern "C" void* make_fcontext(void* sp, uint64_t size, void (*fn)(Transfer));

struct Job {
  enum Kind { kDecide, kTrace } kind;
  Slot* slot;
  uint32_t depth;
  policy::Verdict verdict;
  bool has_result;
  int64_t result;
  const char* annotation;
};

// Parked fiber per (slot, depth); private to this process (copied on fork).
void* g_fibers[kMaxSlots][kMaxDepth];

void RunJob(Job* job) {
  Frame& f = job->slot->frames[job->depth];
  if (job->kind == Job::kDecide) {
    job->verdict = policy::Decide(GuestPolicy(), f.nr, f.args);
    return;
  }
  char line[512];
  trace::TraceCall call = {
      job->slot->tid, f.nr, f.args, {f.strings[0], f.strings[1]}, systrap::kTraceString};
  size_t n = trace::FormatTraceLine(line, sizeof(line), call, job->has_result, job->result,
                                    job->annotation);
  WriteAll(systrap::kTraceFd, line, n);
}

void FiberMain(Transfer t) {
  for (;;) {
    RunJob(static_cast<Job*>(t.data));
    t = jump_fcontext(t.fctx, nullptr);
  }
}

void RunOnFiber(Job* job, bool guest_on_altstack) {
  uint64_t held = ~0ull, before = 0;
  if (guest_on_altstack) Sys(__NR_rt_sigprocmask, 0 /* SIG_BLOCK */, P(&held), P(&before), 8);
  uint32_t index = SlotIndex(job->slot);
  void*& fiber = g_fibers[index][job->depth];
  if (!fiber) {
    char* stack =
        reinterpret_cast<char*>(systrap::kFiberBase) +
        (static_cast<uint64_t>(index) * kMaxDepth + job->depth + 1) * systrap::kFiberStackSize;
    fiber = make_fcontext(stack, systrap::kFiberStackSize, &FiberMain);
  }
  Transfer t = jump_fcontext(fiber, job);
  fiber = t.fctx;
  if (guest_on_altstack) Sys(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, P(&before), 0, 8);
}

}  // namespace

void InprocInit() {
  long r = Sys(__NR_mmap, static_cast<long>(systrap::kFiberBase),
               static_cast<long>(systrap::kFiberRegionSize), PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  // The reservation counts against RLIMIT_AS: say so, a guest's --rlimit=as is the usual cause.
  static_assert(systrap::kFiberRegionSize == 512ull << 20);
  if (r < 0 && r != -17 /* EEXIST: inherited across fork */)
    Fatal(
        "cannot reserve 512 MiB of address space for fiber stacks (inproc needs it within "
        "--rlimit=as)",
        nullptr, r);
}

void InprocResetSlot(uint32_t slot_index) {
  for (uint32_t d = 0; d < kMaxDepth; ++d) g_fibers[slot_index][d] = nullptr;
}

policy::Verdict InprocDecide(Slot* slot, uint32_t depth, bool guest_on_altstack) {
  Job job = {Job::kDecide, slot, depth, {}, false, 0, nullptr};
  RunOnFiber(&job, guest_on_altstack);
  return job.verdict;
}

void InprocTrace(Slot* slot, uint32_t depth, bool guest_on_altstack, bool has_result,
                 int64_t result, const char* annotation) {
  Job job = {Job::kTrace, slot, depth, {}, has_result, result, annotation};
  RunOnFiber(&job, guest_on_altstack);
}

}  // namespace snare::stub
