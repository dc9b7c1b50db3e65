// A TCP listener on the host's 127.0.0.1 at a free port: whether a guest's connect reaches
// the host's network shows in its accept queue.
#ifndef SNARE_TESTS_HOST_LISTENER_H_
#define SNARE_TESTS_HOST_LISTENER_H_

#include <string>

namespace snare::tests {

class HostListener {
 public:
  HostListener() = default;
  HostListener(const HostListener&) = delete;
  HostListener& operator=(const HostListener&) = delete;
  ~HostListener();

  // Returns false and sets *error when no listener can be made.
  bool Open(std::string* error);
  const std::string& port() const { return port_; }
  // A connection is waiting to be accepted.
  bool HasPendingConnection() const;
  // Accepts and closes every waiting connection.
  void DropPendingConnections();

 private:
  int fd_ = -1;
  std::string port_;
};

}  // namespace snare::tests

#endif  // SNARE_TESTS_HOST_LISTENER_H_
