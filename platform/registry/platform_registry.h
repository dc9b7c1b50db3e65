// Platforms by name: "systrap" (default) and "inproc".
#ifndef SNARE_PLATFORM_REGISTRY_PLATFORM_REGISTRY_H_
#define SNARE_PLATFORM_REGISTRY_PLATFORM_REGISTRY_H_

#include <memory>
#include <string_view>

#include "platform/platform.h"

namespace snare::platform {

inline constexpr std::string_view kDefaultPlatform = "systrap";

// nullptr for unknown names.
std::unique_ptr<Platform> PlatformByName(std::string_view name);
// "systrap, inproc": for error messages.
std::string_view PlatformNames();

}  // namespace snare::platform

#endif  // SNARE_PLATFORM_REGISTRY_PLATFORM_REGISTRY_H_
