#include "sandbox/loopback.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::sandbox {

std::expected<void, std::string> BringUpLoopback() {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return std::unexpected(std::string("socket: ") + strerror(errno));
  ifreq ifr = {};
  strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  int rc = ioctl(s, SIOCGIFFLAGS, &ifr);
  if (rc == 0) {
    ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
    rc = ioctl(s, SIOCSIFFLAGS, &ifr);
  }
  int err = errno;
  close(s);
  if (rc != 0) return std::unexpected(std::string("bringing up lo: ") + strerror(err));
  return {};
}

}  // namespace snare::sandbox
