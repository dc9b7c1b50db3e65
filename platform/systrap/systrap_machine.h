// platform::Machine over the stub and its shared region: the sentry side of systrap (and of
// inproc, which runs the same stub in its in-process mode). Scans the slots for requests,
// spins (a fixed count, then for as long as the adaptive window says while a guest thread
// runs its own code) and then sleeps on the doorbell futex, and frees the slots of threads
// that died.
#ifndef SNARE_PLATFORM_SYSTRAP_SYSTRAP_MACHINE_H_
#define SNARE_PLATFORM_SYSTRAP_SYSTRAP_MACHINE_H_

#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/systrap/cpu_crowding.h"
#include "platform/systrap/cpu_mover.h"
#include "platform/systrap/shared_region_file.h"
#include "platform/systrap/spin_window.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::systrap {

// Builds the filter and the stub memfd, creates the shared region and fills its header.
std::expected<std::unique_ptr<platform::Machine>, std::string> NewStubMachine(
    const platform::MachineConfig& config, Mode mode);

class SystrapMachine : public platform::Machine {
 public:
  // Takes ownership of stub_fd.
  SystrapMachine(SharedRegionFile region, int stub_fd, Mode mode, int trace_fd,
                 uint32_t spin_iterations, bool trace);
  ~SystrapMachine() override;

  const platform::GuestEntry& Entry() const override { return entry_; }
  uint32_t MaxThreads() const override { return kMaxSlots; }
  bool AnswersTraps() const override { return mode_ == Mode::kSystrap; }
  policy::PolicyContext Guarded(const policy::PolicyTable* table) const override {
    return {table, kProtectedRanges, kProtectedRangeCount, kFirstReservedFd, kLastReservedFd};
  }
  bool CollectTraps(std::vector<platform::TrapSource>* ready) override;
  void Idle(std::vector<uint32_t>* gone) override;
  void Release(const std::vector<uint32_t>& gone) override;
  void Wake() override;
  std::unique_ptr<platform::Context> NewContext(const platform::TrapSource& source,
                                                std::function<bool()> yield) override;
  void WatchSentry(pid_t sentry) override;
  void SetGuestProc(int proc_dirfd) override;
  std::vector<platform::SyscallCounters> Counters() const override;
  int TakeNotifyListener(int timeout_ms) override;
  IdleReport Idling() const override;
  void SetPassUnseen(std::vector<bool> nrs) override;
  std::vector<uint64_t> PassedUnseen() const override { return passed_unseen_; }

  // The socket pair the first guest process hands its seccomp listener over (-1: none).
  void SetNotifySockets(int sentry_end, int guest_end);
  // The default patch threshold (0: no patching, or the user's own): crowded CPUs lower it
  // to 1 while they last.
  void SetPatchAfter(uint32_t patch_after) { patch_after_ = patch_after; }

  // Finds claimed slots above the header's slots_high, which the stub only raises but a
  // guest may lower: the scans then cover them again (their requests are collected, their
  // dead threads' slots freed). Idle calls it every reap interval.
  void FindHiddenSlots();

 private:
  uint32_t SlotsHigh() const;
  // Reads whether the CPUs are crowded and tells the stubs (no spinning, patching at the
  // first trap) when that changed. Returns whether they are.
  bool NoteCrowding();
  void Sleep();
  // Every kReapIntervalNs: collects into *gone the slots whose thread has gone; true if any.
  bool Reap(uint64_t now, std::vector<uint32_t>* gone);
  // Slots whose thread is gone: exiting ones, or every claimed one when few are free.
  void FindGone(std::vector<uint32_t>* gone) const;
  // Claimed slots whose thread runs its own code: not in a trap, a call or a reply's wait.
  // *on_my_cpu: one of them made its latest request from the CPU the sentry is on.
  // *answered: the slots whose thread runs the call the sentry answered last; *loading: those
  // of them whose call is an execve (and the guest itself until its first request).
  uint32_t RunningGuestThreads(bool* on_my_cpu, uint32_t* answered, uint32_t* loading) const;
  // Answers the slot's depth-0 request (state word `first`) at once if its number is one to
  // pass unseen.
  bool PassUnseen(Slot* slot, uint32_t first);

  SharedRegionFile region_;
  Header* header_;
  int stub_fd_;
  int guest_proc_fd_ = -1;
  int notify_sentry_fd_ = -1;
  int notify_guest_fd_ = -1;
  Mode mode_;
  platform::GuestEntry entry_;
  // The sentry's own copy: the header's is the guest's to write.
  const uint32_t spin_iterations_;
  const bool trace_;
  uint32_t patch_after_ = 0;  // the default patch threshold (0: none, or not to be changed)
  uint32_t idle_ = 0;
  uint64_t idle_calls_ = 0;
  // The highest slots_high seen or slot found claimed: the header's may go down.
  mutable uint32_t slots_high_ = 0;
  uint64_t last_reap_ns_ = 0;
  CpuMover mover_;  // first: it reads the CPUs allowed, which the next three size themselves by
  SpinWindow window_;
  CpuCrowding crowding_;
  const bool adaptive_;              // spin on after the fixed count (systrap, spinning, > 1 CPU)
  bool spinning_ = false;            // within the window, after the fixed spin
  uint32_t last_cpu_ = kCpuUnknown;  // of the latest request collected
  // When the first request came (CLOCK_MONOTONIC; 0: none yet, the guest's first program is
  // still loading).
  uint64_t first_request_ns_ = 0;
  uint64_t sleeps_ = 0;
  std::vector<bool> pass_unseen_;        // by number (SetPassUnseen)
  std::vector<uint64_t> passed_unseen_;  // by number
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SYSTRAP_MACHINE_H_
