// Values read off the front of a fuzzer's input, so that one input drives several choices.
#ifndef SNARE_FUZZ_FUZZ_BYTES_H_
#define SNARE_FUZZ_FUZZ_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace snare::fuzz {

// Consumes sizeof(T) bytes (zeros past the end).
template <typename T>
T Take(const uint8_t*& data, size_t& size) {
  T v{};
  const size_t n = size < sizeof(T) ? size : sizeof(T);
  std::memcpy(&v, data, n);
  data += n;
  size -= n;
  return v;
}

}  // namespace snare::fuzz

#endif  // SNARE_FUZZ_FUZZ_BYTES_H_
