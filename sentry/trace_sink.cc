#include "sentry/trace_sink.h"

#include <unistd.h>

#include <cerrno>

namespace snare::sentry {

void TraceSink::Write(const char* line, size_t len) {
  while (len) {
    ssize_t n = write(fd_, line, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    line += n;
    len -= static_cast<size_t>(n);
  }
}

}  // namespace snare::sentry
