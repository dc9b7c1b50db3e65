// The stub executable embedded in the snare binary, and what the sentry must know about
// it: its text range (the only code allowed to make syscalls) and the address of the
// empty pathname it passes to execveat.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_IMAGE_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_IMAGE_H_

#include <cstdint>
#include <expected>
#include <span>
#include <string>

namespace snare::systrap {

struct StubLayout {
  uint64_t text_start = 0;
  uint64_t text_end = 0;
  uint64_t empty_path = 0;  // address of kStubEmptyPath
  uint64_t rodata = 0;      // address of kStubRodata (sysmsg/stub_rodata.h)
  uint64_t image_end = 0;   // end of the highest segment
};

// The embedded stub's bytes.
std::span<const uint8_t> StubImageBytes();

// Parses an ELF image of the stub.
std::expected<StubLayout, std::string> ParseStubLayout(std::span<const uint8_t> image);

// A sealed (write, grow, shrink, seal), executable memfd holding the stub; the caller owns
// the fd. The guest can neither modify it nor exec anything else through it.
std::expected<int, std::string> CreateStubMemfd();

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_IMAGE_H_
