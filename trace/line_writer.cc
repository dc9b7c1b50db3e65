#include "trace/line_writer.h"

namespace snare::trace {

LineWriter& LineWriter::Bytes(const char* s, size_t n) {
  for (size_t i = 0; i < n && len_ < cap_; ++i) buf_[len_++] = s[i];
  return *this;
}

LineWriter& LineWriter::Str(const char* s) { return Bytes(s, Length(s)); }

LineWriter& LineWriter::Char(char c) { return Bytes(&c, 1); }

LineWriter& LineWriter::Udec(uint64_t v) {
  char tmp[24];
  int i = 0;
  do {
    tmp[i++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (i) Char(tmp[--i]);
  return *this;
}

LineWriter& LineWriter::Dec(int64_t v) {
  if (v < 0) {
    Char('-');
    return Udec(0 - static_cast<uint64_t>(v));
  }
  return Udec(static_cast<uint64_t>(v));
}

LineWriter& LineWriter::Hex(uint64_t v) {
  Str("0x");
  char tmp[16];
  int i = 0;
  do {
    tmp[i++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (i) Char(tmp[--i]);
  return *this;
}

LineWriter& LineWriter::Quoted(const char* s, size_t max) {
  Char('"');
  size_t i = 0;
  for (; i < max && s[i]; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      Char('\\').Char(static_cast<char>(c));
    } else if (c == '\n') {
      Str("\\n");
    } else if (c == '\t') {
      Str("\\t");
    } else if (c < 0x20 || c >= 0x7f) {
      Char('\\')
          .Char(static_cast<char>('0' + (c >> 6)))
          .Char(static_cast<char>('0' + ((c >> 3) & 7)))
          .Char(static_cast<char>('0' + (c & 7)));
    } else {
      Char(static_cast<char>(c));
    }
  }
  Char('"');
  if (i == max && s[i]) Str("...");
  return *this;
}

}  // namespace snare::trace
