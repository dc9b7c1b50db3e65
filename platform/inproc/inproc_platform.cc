#include "platform/inproc/inproc_platform.h"

#include "platform/systrap/systrap_machine.h"

namespace snare::inproc {

std::expected<std::unique_ptr<platform::Machine>, std::string> InprocPlatform::NewMachine(
    const platform::MachineConfig& config) const {
  return systrap::NewStubMachine(config, systrap::Mode::kInproc);
}

}  // namespace snare::inproc
