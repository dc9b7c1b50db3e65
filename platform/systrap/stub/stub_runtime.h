// Freestanding helpers for the stub: memory and string primitives, a line writer, and fatal
// errors. No libc: the guest owns the TLS register, so nothing here may touch %fs.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_STUB_RUNTIME_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_STUB_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#include "trace/line_writer.h"

extern "C" {
void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);
size_t strlen(const char* s);
}

namespace snare::stub {

using trace::LineWriter;

int StrCmp(const char* a, const char* b);
bool StartsWith(const char* s, const char* prefix);

// Parses a non-negative decimal; returns -1 on anything else.
int64_t ParseDec(const char* s);

// Writes "snare-stub: <msg>[: <detail>]\n" to stderr and exits the process with `status`.
[[noreturn]] void Fatal(const char* msg, const char* detail = nullptr, long err = 0,
                        int status = 127);

void WriteAll(int fd, const char* data, size_t n);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_STUB_RUNTIME_H_
