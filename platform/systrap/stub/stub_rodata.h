// The stub's sealed constants (sysmsg/stub_rodata.h) and their addresses, for syscalls whose
// pointer arguments the seccomp filter pins.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_STUB_RODATA_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_STUB_RODATA_H_

#include <stddef.h>

#include "platform/systrap/sysmsg/stub_rodata.h"

namespace snare::stub {

// The address of the kStubRodata field at `offset` (one of systrap::kRodata*).
long RodataAddress(size_t offset);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_STUB_RODATA_H_
