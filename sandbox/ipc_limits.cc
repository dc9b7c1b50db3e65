#include "sandbox/ipc_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::sandbox {

std::expected<void, std::string> BoundSharedMemory(const std::string& proc, uint64_t bytes) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const struct {
    const char* name;
    uint64_t value;
  } limits[] = {{"shmmax", bytes}, {"shmall", bytes / page}};
  for (const auto& limit : limits) {
    const std::string path = proc + "/sys/kernel/" + limit.name;
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    // ENOENT: no SysV IPC. EACCES: the namespace's sysctls belong to the root of the guest's
    // user namespace, which an unprivileged invoker cannot map.
    if (fd < 0 && (errno == ENOENT || errno == EACCES)) return {};
    const std::string text = std::to_string(limit.value) + "\n";
    const bool written =
        fd >= 0 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int err = errno;
    if (fd >= 0) close(fd);
    if (!written) return std::unexpected("bounding " + path + ": " + strerror(err));
  }
  return {};
}

}  // namespace snare::sandbox
