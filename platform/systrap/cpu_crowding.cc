#include "platform/systrap/cpu_crowding.h"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>

namespace snare::systrap {

CpuCrowding::CpuCrowding(int cpus, const char* loadavg)
    : fd_(open(loadavg, O_RDONLY | O_CLOEXEC)), cpus_(cpus) {}

CpuCrowding::~CpuCrowding() {
  if (fd_ >= 0) close(fd_);
}

bool CpuCrowding::Crowded(uint64_t now_ns, int guest_threads) {
  if (!DueAt(now_ns)) return crowded_;
  read_once_ = true;
  read_ns_ = now_ns;
  char buf[128];
  const ssize_t n = pread(fd_, buf, sizeof(buf), 0);
  const std::optional<int> runnable =
      n > 0 ? Runnable(std::string_view(buf, static_cast<size_t>(n))) : std::nullopt;
  // The count includes the sentry itself, which is running as it reads: the others are
  // runnable - guest_threads - 1, and they crowd the CPUs once others + 2 > cpus.
  const bool crowded_now = runnable && *runnable - guest_threads + 1 > cpus_;
  crowded_ = crowded_now && last_read_crowded_;
  last_read_crowded_ = crowded_now;
  crowded_reads_ += crowded_;
  return crowded_;
}

std::optional<int> CpuCrowding::Runnable(std::string_view loadavg) {
  size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    at = loadavg.find(' ', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  const size_t slash = loadavg.find('/', at);
  if (slash == std::string_view::npos || slash == at) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(loadavg.data() + at, loadavg.data() + slash, value);
  if (error != std::errc() || end != loadavg.data() + slash) return std::nullopt;
  return value;
}

}  // namespace snare::systrap
