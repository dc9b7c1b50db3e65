// Formats one strace-style --trace line: "[tid] name(args) = result".
// Freestanding: shared by the sentry and the inproc stub.
#ifndef SNARE_TRACE_TRACE_LINE_H_
#define SNARE_TRACE_TRACE_LINE_H_

#include <stddef.h>
#include <stdint.h>

namespace snare::trace {

// Bytes of each path argument the stub copies for a trace line (the last is always NUL).
inline constexpr uint32_t kPathPrefixBytes = 96;

struct TraceCall {
  int32_t tid;
  uint64_t nr;
  const uint64_t* args;    // 6 values
  const char* strings[2];  // copies of the first two path arguments, or nullptr
  size_t string_max;       // bytes available in each copy
};

// Writes the line (with a trailing newline) and returns its length. has_result false
// prints "= ?" (exit, execve that replaced the image); annotation, if set, follows the
// result in angle brackets ("<denied>", "<emulated>").
size_t FormatTraceLine(char* buf, size_t cap, const TraceCall& call, bool has_result,
                       int64_t result, const char* annotation);

}  // namespace snare::trace

#endif  // SNARE_TRACE_TRACE_LINE_H_
