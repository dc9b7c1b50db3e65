// Formats one strace-style --trace line: "[tid] name(args) = result".
// Freestanding: shared by the sentry and the inproc stub.
#ifndef SNARE_SENTRY_TRACE_LINE_H_
#define SNARE_SENTRY_TRACE_LINE_H_

#include <stddef.h>
#include <stdint.h>

namespace snare {

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

}  // namespace snare

#endif  // SNARE_SENTRY_TRACE_LINE_H_
