#include "platform/registry/platform_registry.h"

#include "platform/inproc/inproc_platform.h"
#include "platform/systrap/systrap_platform.h"

namespace snare::platform {

std::unique_ptr<Platform> PlatformByName(std::string_view name) {
  if (name == "systrap") return std::make_unique<systrap::SystrapPlatform>();
  if (name == "inproc") return std::make_unique<inproc::InprocPlatform>();
  return nullptr;
}

std::string_view PlatformNames() { return "systrap, inproc"; }

}  // namespace snare::platform
