// Where the sentry's --trace lines go: one write(2) per line, like strace, so lines
// interleave sensibly with the guest's own stderr.
#ifndef SNARE_SENTRY_TRACE_SINK_H_
#define SNARE_SENTRY_TRACE_SINK_H_

#include <cstddef>

namespace snare::sentry {

class TraceSink {
 public:
  explicit TraceSink(int fd) : fd_(fd) {}
  void Write(const char* line, size_t len);
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TRACE_SINK_H_
