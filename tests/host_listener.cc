#include "tests/host_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::tests {

HostListener::~HostListener() {
  if (fd_ >= 0) close(fd_);
}

bool HostListener::Open(std::string* error) {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(fd_, 8) != 0 || getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    *error = std::string("a listener on 127.0.0.1: ") + strerror(errno);
    return false;
  }
  port_ = std::to_string(ntohs(addr.sin_port));
  return true;
}

bool HostListener::HasPendingConnection() const {
  pollfd p = {fd_, POLLIN, 0};
  return poll(&p, 1, 0) == 1;
}

void HostListener::DropPendingConnections() {
  for (int c; (c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) close(c);
}

}  // namespace snare::tests
