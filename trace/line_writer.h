// Appends text to a fixed buffer, silently truncating. Freestanding: the stub formats
// --trace lines with it inside the guest, the sentry in its own process.
#ifndef SNARE_TRACE_LINE_WRITER_H_
#define SNARE_TRACE_LINE_WRITER_H_

#include <stddef.h>
#include <stdint.h>

namespace snare::trace {

class LineWriter {
 public:
  LineWriter(char* buf, size_t cap) : buf_(buf), cap_(cap) {}
  LineWriter& Str(const char* s);
  LineWriter& Bytes(const char* s, size_t n);
  LineWriter& Char(char c);
  LineWriter& Dec(int64_t v);
  LineWriter& Udec(uint64_t v);
  LineWriter& Hex(uint64_t v);
  // C-escaped and quoted; "..." follows when the string is longer than max.
  LineWriter& Quoted(const char* s, size_t max);
  size_t size() const { return len_; }
  const char* data() const { return buf_; }

 private:
  static size_t Length(const char* s) {
    size_t n = 0;
    while (s[n]) ++n;
    return n;
  }
  char* buf_;
  size_t cap_;
  size_t len_ = 0;
};

}  // namespace snare::trace

#endif  // SNARE_TRACE_LINE_WRITER_H_
