// --trace lines from what a guest controls: any syscall number, argument values and the
// path strings the stub copies (not terminated, control characters, invalid UTF-8). The line
// must fit its buffer, end in its one newline and carry no raw control character (a guest
// string with ESC or a newline must not reach the user's terminal or forge a trace line).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "fuzz/fuzz_bytes.h"
#include "trace/trace_line.h"

namespace {

using snare::fuzz::Take;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using snare::trace::TraceCall;
  const auto tid = Take<int32_t>(data, size);
  const auto nr = Take<uint64_t>(data, size);
  uint64_t args[6];
  for (uint64_t& a : args) a = Take<uint64_t>(data, size);
  const auto flags = Take<uint8_t>(data, size);
  const auto result = Take<int64_t>(data, size);
  // The stub's copies hold kPathPrefixBytes; other sizes test the bound itself.
  size_t string_max = Take<uint8_t>(data, size);
  if (flags & 8) string_max = snare::trace::kPathPrefixBytes;
  const size_t cap = 1 + Take<uint16_t>(data, size) % 1024;

  // Each string exactly string_max bytes, not terminated unless the input says so: reading
  // past them is an out-of-bounds read for ASan.
  std::unique_ptr<char[]> strings[2];
  TraceCall call{tid, nr, args, {nullptr, nullptr}, string_max};
  for (int i = 0; i < 2; ++i) {
    if (!(flags & (1 << i))) continue;
    strings[i] = std::make_unique<char[]>(string_max);
    const size_t n = size < string_max ? size : string_max;
    std::memcpy(strings[i].get(), data, n);
    std::memset(strings[i].get() + n, 'x', string_max - n);
    data += n;
    size -= n;
    call.strings[i] = strings[i].get();
  }
  const char* annotation = (flags & 4) ? "denied" : nullptr;
  auto line = std::make_unique<char[]>(cap);
  const size_t n =
      snare::trace::FormatTraceLine(line.get(), cap, call, flags & 16, result, annotation);
  if (n == 0 || n > cap || line[n - 1] != '\n') __builtin_trap();
  for (size_t i = 0; i + 1 < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c < 0x20 || c == 0x7f) __builtin_trap();  // a raw control character
  }
  return 0;
}
