#include "platform/systrap/systrap_platform.h"

#include "platform/systrap/systrap_machine.h"

namespace snare::systrap {

std::expected<std::unique_ptr<platform::Machine>, std::string> SystrapPlatform::NewMachine(
    const platform::MachineConfig& config) const {
  return NewStubMachine(config, Mode::kSystrap);
}

}  // namespace snare::systrap
