#include "platform/systrap/systrap_machine.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "platform/systrap/seccomp_program.h"
#include "platform/systrap/slot_context.h"
#include "platform/systrap/stub_image.h"
#include "util/fd_passing.h"
#include "util/monotonic_clock.h"

namespace snare::systrap {
namespace {

template <typename T>
T Load(const T& v) {
  return __atomic_load_n(&v, __ATOMIC_ACQUIRE);
}

constexpr uint64_t kReapIntervalNs = 20'000'000;
// A stub woken by a reply may wait on this CPU's run queue behind the spinner.
constexpr uint32_t kSpinsPerYield = 256;
constexpr uint32_t kLowSlots = 64;
// The adaptive spin looks at the clock and the slots this often.
constexpr uint32_t kSpinsPerCheck = 64;

}  // namespace

std::expected<std::unique_ptr<platform::Machine>, std::string> NewStubMachine(
    const platform::MachineConfig& config, Mode mode) {
  if (!config.policy) return std::unexpected(std::string("no policy for the machine"));
  const policy::PolicyTable& table = *config.policy;
  auto layout = ParseStubLayout(StubImageBytes());
  if (!layout) return std::unexpected(layout.error());
  StubRangeOptions options;
  options.stub_runs_brokered_calls = mode == Mode::kInproc;
  auto filter = BuildSeccompProgram(*layout, table, options);
  if (!filter) return std::unexpected(filter.error());
  auto stub_fd = CreateStubMemfd();
  if (!stub_fd) return std::unexpected(stub_fd.error());
  auto region = SharedRegionFile::Create(mode);
  if (!region) {
    close(*stub_fd);
    return std::unexpected(region.error());
  }
  Header* h = region->header();
  h->spin_iterations = config.spin_iterations;
  h->trace = config.trace;
  h->sentry_pid = 0;
  h->stub_text_start = layout->text_start;
  h->stub_text_end = layout->text_end;
  h->notify = !NotifiedSyscalls(table).empty();
  h->patch = config.patch && mode == Mode::kSystrap ? std::max(config.patch_after, 1u) : 0;
  h->timing = config.timing;
  // A trace is the sentry's to write: with one, every call goes to it.
  h->stub_decides = h->patch && !config.all_to_sentry && !config.trace;
  h->filter_len = static_cast<uint32_t>(filter->size());
  std::memcpy(h->filter, filter->data(), filter->size() * sizeof(sock_filter));
  h->policy = table;  // its used part: the unused rules' pages of the region stay unfaulted
  int notify[2] = {-1, -1};
  if (h->notify && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, notify) != 0) {
    close(*stub_fd);
    return std::unexpected(std::string("socketpair for seccomp notifications: ") + strerror(errno));
  }
  auto machine = std::make_unique<SystrapMachine>(std::move(*region), *stub_fd, mode,
                                                  mode == Mode::kInproc ? config.trace_fd : -1,
                                                  config.spin_iterations, config.trace);
  machine->SetNotifySockets(notify[0], notify[1]);
  // Crowded CPUs lower the default threshold, not the user's.
  if (!config.patch_after_given) machine->SetPatchAfter(h->patch);
  return machine;
}

SystrapMachine::SystrapMachine(SharedRegionFile region, int stub_fd, Mode mode, int trace_fd,
                               uint32_t spin_iterations, bool trace)
    : region_(std::move(region)),
      header_(region_.header()),
      stub_fd_(stub_fd),
      mode_(mode),
      spin_iterations_(spin_iterations),
      trace_(trace),
      last_reap_ns_(util::MonotonicNs()),
      window_(mover_.allowed_cpus()),
      crowding_(mover_.allowed_cpus()),
      adaptive_(mode == Mode::kSystrap && spin_iterations > 0 && mover_.allowed_cpus() > 1) {
  entry_.exec_fd = kStubFd;
  entry_.fds = {{stub_fd_, kStubFd}, {region_.fd(), kSharedFd}};
  // Without --trace output the trace fd's number is still held (by a second copy of the
  // sealed stub): the kernel would hand a free 1020 to the guest, whose every call on it the
  // policy refuses (EBADF) as a reserved fd.
  entry_.fds.push_back({trace_fd >= 0 ? trace_fd : stub_fd_, kTraceFd});
  entry_.argv_prefix = {"snare-stub", "-"};
}

SystrapMachine::~SystrapMachine() {
  if (stub_fd_ >= 0) close(stub_fd_);
  if (guest_proc_fd_ >= 0) close(guest_proc_fd_);
  if (notify_sentry_fd_ >= 0) close(notify_sentry_fd_);
  if (notify_guest_fd_ >= 0) close(notify_guest_fd_);
}

void SystrapMachine::SetNotifySockets(int sentry_end, int guest_end) {
  notify_sentry_fd_ = sentry_end;
  notify_guest_fd_ = guest_end;
  if (guest_end >= 0) entry_.fds.push_back({guest_end, kNotifySocketFd});
}

int SystrapMachine::TakeNotifyListener(int timeout_ms) {
  if (notify_sentry_fd_ < 0) return -1;
  // The guest holds its end now: ours closed, a guest gone before sending reads as EOF.
  if (notify_guest_fd_ >= 0) {
    close(notify_guest_fd_);
    notify_guest_fd_ = -1;
  }
  pollfd p = {notify_sentry_fd_, POLLIN, 0};
  int listener = -1;
  if (poll(&p, 1, timeout_ms) == 1) {
    char byte;
    if (util::ReceiveWithFd(notify_sentry_fd_, &byte, 1, &listener) <= 0) listener = -1;
  }
  // One listener, once: later messages (a guest replaying the stub's sendmsg) find no one.
  close(notify_sentry_fd_);
  notify_sentry_fd_ = -1;
  return listener;
}

// The header's slots_high is the guest's to write: the sentry's own only goes up.
uint32_t SystrapMachine::SlotsHigh() const {
  slots_high_ = std::max(slots_high_, std::min(Load(header_->slots_high), kMaxSlots));
  return slots_high_;
}

// A slot whose first page was never written is free: mincore tells without reading it
// (which would fault in a page of zeros per slot).
void SystrapMachine::FindHiddenSlots() {
  constexpr size_t kPagesPerSlot = sizeof(Slot) / 4096;
  static_assert(sizeof(Slot) % 4096 == 0);
  unsigned char resident[kMaxSlots * kPagesPerSlot];
  if (mincore(SlotAt(region_.base(), 0), sizeof(Slot) * kMaxSlots, resident) != 0) return;
  for (uint32_t i = kMaxSlots; i-- > slots_high_;) {
    if ((resident[i * kPagesPerSlot] & 1) && Load(SlotAt(region_.base(), i)->state) != kSlotFree) {
      slots_high_ = i + 1;
      return;
    }
  }
}

bool SystrapMachine::CollectTraps(std::vector<platform::TrapSource>* ready) {
  if (mode_ != Mode::kSystrap) return false;
  bool worked = false;
  const uint32_t high = SlotsHigh();
  for (uint32_t i = 0; i < high; ++i) {
    Slot* slot = SlotAt(region_.base(), i);
    // The first frame's word carries a depth-0 request and the CPU it came from; the
    // slot's context finds nested ones.
    const uint32_t first = Load(slot->frames[0].state);
    const bool request = PhaseOf(first) == kFrameRequest;
    const bool nested = Load(slot->pending) != 0;
    if (!request && !nested) continue;
    // Its task would end at once and leave the request standing (a free slot's frames are
    // idle unless the guest wrote them).
    if (Load(slot->state) == kSlotFree) continue;
    worked = true;
    if (request) last_cpu_ = CpuOf(first);
    // (A nested request, flagged by pending, goes first: the Task takes the deepest.)
    if (request && !nested && PassUnseen(slot, first)) continue;
    ready->push_back({i, Load(slot->generation)});
  }
  if (worked) {
    idle_ = 0;
    if (!first_request_ns_) first_request_ns_ = util::MonotonicNs();
  }
  return worked;
}

void SystrapMachine::SetPassUnseen(std::vector<bool> nrs) {
  if (mode_ != Mode::kSystrap) return;
  passed_unseen_.assign(nrs.size(), 0);
  pass_unseen_ = std::move(nrs);
}

bool SystrapMachine::PassUnseen(Slot* slot, uint32_t first) {
  // The number as the frame holds it: the stub runs the call it trapped, whatever the guest
  // writes here, and the kernel's filter holds that to the same policy.
  const uint32_t nr = __atomic_load_n(&slot->frames[0].nr, __ATOMIC_RELAXED);
  if (nr >= pass_unseen_.size() || !pass_unseen_[nr]) return false;
  ++passed_unseen_[nr];
  WriteReply(slot->frames[0], first, kActionPassthrough, false);
  return true;
}

uint32_t SystrapMachine::RunningGuestThreads(bool* on_my_cpu, uint32_t* answered,
                                             uint32_t* loading) const {
  const uint32_t high = SlotsHigh();
  const int cpu = sched_getcpu();
  uint32_t running = 0;
  *on_my_cpu = false;
  *answered = 0;
  *loading = 0;
  for (uint32_t i = 0; i < high; ++i) {
    const Slot* slot = SlotAt(region_.base(), i);
    if (Load(slot->state) != kSlotClaimed) continue;
    const uint32_t depth = Load(slot->depth);
    if (depth != 0) {
      // Between the sentry's answer and the frame's close: running the call it was told to.
      // (The number is the guest's to write: a lie only keeps the sentry spinning, bounded.)
      if (depth == 1 && !Load(slot->pending) &&
          PhaseOf(Load(slot->frames[0].state)) == kFrameReply) {
        const uint32_t nr = Load(slot->frames[0].nr);
        ++*(nr == __NR_execve || nr == __NR_execveat ? loading : answered);
      }
      continue;
    }
    ++running;
    const uint32_t state = Load(slot->frames[0].state);  // idle: no request yet, no CPU
    *on_my_cpu |= cpu >= 0 && state != kFrameIdle && CpuOf(state) == static_cast<uint32_t>(cpu);
  }
  if (!first_request_ns_) {  // the guest is still starting, its slot claimed or not
    *loading += std::max(running, 1u);
    running = 0;
  }
  return running;
}

bool SystrapMachine::Reap(uint64_t now, std::vector<uint32_t>* gone) {
  if (now - last_reap_ns_ < kReapIntervalNs) return false;
  last_reap_ns_ = now;
  FindHiddenSlots();
  const size_t before = gone->size();
  FindGone(gone);
  return gone->size() != before;
}

void SystrapMachine::Idle(std::vector<uint32_t>* gone) {
  // A sentry kept busy never reaches its sleep: reap on the way too, or the slots of exited
  // threads pile up until none is free.
  if (++idle_calls_ % kSpinsPerYield == 0 && Reap(util::MonotonicNs(), gone)) return;
  // Right after an answer (not on the way of one): where more tasks want the CPUs than there
  // are, neither the sentry nor a stub spins, as with one CPU.
  const bool crowded = idle_ == 0 && adaptive_ && NoteCrowding();
  if (mode_ == Mode::kSystrap && spin_iterations_ > 0 && !crowded) {
    ++idle_;
    // The thread just answered runs on this CPU: spinning would keep it from running
    // (until the next yield), so sleep at once and give it the CPU.
    const bool shares_cpu = idle_ == 1 && last_cpu_ != kCpuUnknown &&
                            static_cast<uint32_t>(sched_getcpu()) == last_cpu_;
    bool spin = idle_ < spin_iterations_ && !shares_cpu;
    // Give the thread its CPU by leaving it, rather than by sleeping there (unless the
    // running guest threads need every CPU: the move would only take another's).
    if (shares_cpu && adaptive_) {
      const uint64_t now = util::MonotonicNs();
      bool on_my_cpu = false;
      uint32_t answered = 0, loading = 0;
      spin = mover_.Rested(now) &&
             RunningGuestThreads(&on_my_cpu, &answered, &loading) <
                 static_cast<uint32_t>(mover_.allowed_cpus()) &&
             mover_.MoveOff(last_cpu_, now);
    }
    if (!spin && !shares_cpu && adaptive_) {
      // After the fixed spin, every so often: is a guest thread still about to trap? (No
      // clock on the path of a trap that came within the fixed spin.)
      const uint32_t past = idle_ - spin_iterations_;
      if (past % kSpinsPerCheck == 0) {
        const uint64_t now = util::MonotonicNs();
        if (past == 0) window_.Start(now);
        // A guest thread that runs on this CPU waits for the spinner to yield: sleep
        // instead, and let the scheduler run it here or move one of the two.
        bool on_my_cpu = false;
        uint32_t answered = 0, loading = 0;
        const uint32_t running = RunningGuestThreads(&on_my_cpu, &answered, &loading);
        spinning_ = !on_my_cpu && window_.ShouldSpin(now, running, answered, loading);
      }
      spin = spinning_;
    }
    if (spin) {
      if (idle_ % kSpinsPerYield == 0) sched_yield();
      __builtin_ia32_pause();
      return;
    }
  }
  idle_ = 0;
  if (Reap(util::MonotonicNs(), gone)) return;  // the caller releases them, then comes back
  Sleep();
}

// A slot is free again once its thread is gone. host_tid comes from the guest: a lie only
// costs the guest its own slot.
void SystrapMachine::FindGone(std::vector<uint32_t>* gone) const {
  const uint32_t high = SlotsHigh();
  uint32_t claimed = 0;
  for (uint32_t i = 0; i < high; ++i) {
    claimed += Load(SlotAt(region_.base(), i)->state) != kSlotFree;
  }
  const bool all_claimed = kMaxSlots - claimed < kLowSlots;
  for (uint32_t i = 0; i < high; ++i) {
    const Slot* slot = SlotAt(region_.base(), i);
    const uint32_t state = Load(slot->state);
    if (state == kSlotFree) continue;
    if (state != kSlotExiting && !all_claimed) continue;
    const int32_t tid = Load(slot->host_tid);
    if (tid <= 0) continue;
    const bool alive = guest_proc_fd_ >= 0
                           ? faccessat(guest_proc_fd_, std::to_string(tid).c_str(), F_OK, 0) == 0 ||
                                 errno != ENOENT
                           : kill(tid, 0) == 0 || errno != ESRCH;
    if (!alive) gone->push_back(i);
  }
}

void SystrapMachine::Release(const std::vector<uint32_t>& gone) {
  for (uint32_t index : gone) {
    if (index >= kMaxSlots) continue;
    Slot* slot = SlotAt(region_.base(), index);
    for (auto& f : slot->frames) __atomic_store_n(&f.state, uint32_t{kFrameIdle}, __ATOMIC_RELAXED);
    // The next thread to claim the slot writes its own id a moment after its claim: until
    // then FindGone must not test this dead thread's id and free the slot under it.
    __atomic_store_n(&slot->host_tid, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->state, uint32_t{kSlotFree}, __ATOMIC_RELEASE);
  }
}

void SystrapMachine::Wake() {
  __atomic_fetch_add(&header_->doorbell, 1, __ATOMIC_SEQ_CST);
  syscall(SYS_futex, &header_->doorbell, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

bool SystrapMachine::NoteCrowding() {
  const uint64_t now = util::MonotonicNs();
  uint32_t guest_threads = 0;
  if (crowding_.DueAt(now)) {
    bool on_my_cpu = false;
    uint32_t answered = 0, loading = 0;
    guest_threads = RunningGuestThreads(&on_my_cpu, &answered, &loading) + answered + loading;
  }
  const uint32_t crowded = crowding_.Crowded(now, static_cast<int>(guest_threads));
  if (crowded != Load(header_->crowded)) {
    __atomic_store_n(&header_->crowded, crowded, __ATOMIC_RELAXED);
    // A trap there costs two wake-ups, not a spin: a site is patched at its first trap
    // (`python3 -c pass` beside two CPU hogs: 0.77 of the time).
    if (patch_after_ != 0) {
      __atomic_store_n(&header_->patch, crowded ? 1u : patch_after_, __ATOMIC_RELAXED);
    }
  }
  return crowded;
}

void SystrapMachine::Sleep() {
  const uint32_t seen = Load(header_->doorbell);
  __atomic_store_n(&header_->sentry_sleeping, 1u, __ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  const uint32_t high = SlotsHigh();
  bool pending = false;
  for (uint32_t i = 0; i < high && !pending; ++i) {
    const Slot* slot = SlotAt(region_.base(), i);
    pending = Load(slot->pending) != 0 || PhaseOf(Load(slot->frames[0].state)) == kFrameRequest;
  }
  if (!pending) {
    timespec timeout = {0, static_cast<long>(kReapIntervalNs)};
    syscall(SYS_futex, &header_->doorbell, FUTEX_WAIT, seen, &timeout, nullptr, 0);
    ++sleeps_;
    if (adaptive_) window_.Woke(util::MonotonicNs());
  }
  __atomic_store_n(&header_->sentry_sleeping, 0u, __ATOMIC_SEQ_CST);
}

platform::Machine::IdleReport SystrapMachine::Idling() const {
  return {sleeps_, adaptive_ ? window_.window_ns() : 0, mover_.moves(), crowding_.crowded_reads(),
          first_request_ns_};
}

std::unique_ptr<platform::Context> SystrapMachine::NewContext(const platform::TrapSource& source,
                                                              std::function<bool()> yield) {
  return std::make_unique<SlotContext>(SlotAt(region_.base(), source.thread), std::move(yield),
                                       trace_);
}

void SystrapMachine::SetGuestProc(int proc_dirfd) {
  if (guest_proc_fd_ >= 0) close(guest_proc_fd_);
  guest_proc_fd_ = proc_dirfd;
}

void SystrapMachine::WatchSentry(pid_t sentry) {
  __atomic_store_n(&header_->sentry_pid, sentry, __ATOMIC_RELEASE);
}

std::vector<platform::SyscallCounters> SystrapMachine::Counters() const {
  std::vector<platform::SyscallCounters> sum(abi::kSyscallLimit);
  // Only slots ever claimed have counters (the rest would fault in pages of zeros).
  const uint32_t high = SlotsHigh();
  for (uint32_t s = 0; s < high; ++s) {
    const SlotStats* slot = StatsAt(region_.base(), s);
    for (int nr = 0; nr < abi::kSyscallLimit; ++nr) {
      const TrapCounters& c = slot->per_nr[nr];
      if (!c.calls) continue;
      sum[nr].calls += c.calls;
      sum[nr].errors += c.errors;
      sum[nr].overhead_ticks += c.overhead_ticks;
      sum[nr].syscall_ticks += c.syscall_ticks;
      sum[nr].patched += c.patched;
      sum[nr].in_stub += c.in_stub;
      sum[nr].limited += c.limited;
    }
  }
  return sum;
}

}  // namespace snare::systrap
