// inproc: the same seccomp trap and stub, but the stub decides every syscall inside the
// guest process on a Boost.Context fiber (platform/systrap/stub/inproc_sentry.cc). No
// isolation from the guest; the baseline that shows what the out-of-process handoff costs.
#ifndef SNARE_PLATFORM_INPROC_INPROC_PLATFORM_H_
#define SNARE_PLATFORM_INPROC_INPROC_PLATFORM_H_

#include "platform/platform.h"

namespace snare::inproc {

class InprocPlatform : public platform::Platform {
 public:
  std::string_view Name() const override { return "inproc"; }
  std::expected<std::unique_ptr<platform::Machine>, std::string> NewMachine(
      const platform::MachineConfig& config) const override;
};

}  // namespace snare::inproc

#endif  // SNARE_PLATFORM_INPROC_INPROC_PLATFORM_H_
