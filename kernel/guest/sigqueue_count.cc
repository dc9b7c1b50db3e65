#include "kernel/guest/sigqueue_count.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "kernel/guest/file_text.h"

namespace snare::lab {

std::expected<SigQueueCount, std::string> ReadSigQueueCount() {
  auto status = ReadFileText("/proc/self/status");
  if (!status) return std::unexpected(status.error());
  const std::string& text = *status;
  size_t at = text.find("\nSigQ:");
  if (at == std::string::npos) return std::unexpected(std::string("no SigQ line in status"));
  const char* p = text.c_str() + at + 6;
  char* end = nullptr;
  SigQueueCount count;
  count.queued = strtol(p, &end, 10);
  if (end == p || *end != '/') return std::unexpected(std::string("unreadable SigQ line"));
  p = end + 1;
  count.limit = strtol(p, &end, 10);
  if (end == p) return std::unexpected(std::string("unreadable SigQ line"));
  return count;
}

std::expected<SigQueueCount, std::string> ReadSettledSigQueueCount() {
  std::expected<SigQueueCount, std::string> best = ReadSigQueueCount();
  for (int i = 0; i < 24 && best; ++i) {
    timespec pause = {0, 4 * 1000 * 1000};
    nanosleep(&pause, nullptr);
    auto next = ReadSigQueueCount();
    if (!next) return next;
    if (next->queued < best->queued) best = next;
  }
  return best;
}

}  // namespace snare::lab
