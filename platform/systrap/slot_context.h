// platform::Context for one systrap slot: reads requests out of shared memory (validating
// them) and writes replies back, waking the stub when it sleeps.
#ifndef SNARE_PLATFORM_SYSTRAP_SLOT_CONTEXT_H_
#define SNARE_PLATFORM_SYSTRAP_SLOT_CONTEXT_H_

#include <cstdint>
#include <functional>

#include "platform/platform.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::systrap {

// Writes a reply into frame f, whose request had the state word `request`, and wakes the
// stub if it sleeps. The value and copy-out bytes must be in place.
void WriteReply(Frame& f, uint32_t request, uint32_t action, bool copyout);

class SlotContext : public platform::Context {
 public:
  // yield suspends the calling Task until the dispatcher resumes it (false: end it, Switch()
  // returns kGone). trace: copy the path
  // prefixes the stub wrote for --trace.
  SlotContext(Slot* slot, std::function<bool()> yield, bool trace);

  platform::Event Switch(const policy::Verdict* reply) override;
  bool Completed(uint32_t depth, uint64_t seq, int64_t* result) const override;

  uint64_t generation() const { return generation_; }

 private:
  void Answer(const policy::Verdict& reply);
  bool TakeRequest(platform::SyscallRequest* out);
  void Copy(uint32_t depth, platform::SyscallRequest* out);
  bool Gone() const;

  Slot* slot_;
  uint64_t generation_;
  std::function<bool()> yield_;
  bool trace_;
  uint32_t answering_depth_ = 0;
  bool scan_nested_ = false;  // a nested request was taken: look above depth 0 again
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SLOT_CONTEXT_H_
