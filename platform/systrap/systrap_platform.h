// systrap: seccomp RET_TRAP -> SIGSYS -> stub -> shared-memory slot -> sentry process.
#ifndef SNARE_PLATFORM_SYSTRAP_SYSTRAP_PLATFORM_H_
#define SNARE_PLATFORM_SYSTRAP_SYSTRAP_PLATFORM_H_

#include "platform/platform.h"

namespace snare::systrap {

class SystrapPlatform : public platform::Platform {
 public:
  std::string_view Name() const override { return "systrap"; }
  std::expected<std::unique_ptr<platform::Machine>, std::string> NewMachine(
      const platform::MachineConfig& config) const override;
};

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SYSTRAP_PLATFORM_H_
