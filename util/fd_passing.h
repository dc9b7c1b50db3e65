// One message on a unix socket, with at most one file descriptor riding along
// (SCM_RIGHTS): how snare's own processes hand each other /proc dirs and seccomp listeners.
#ifndef SNARE_UTIL_FD_PASSING_H_
#define SNARE_UTIL_FD_PASSING_H_

#include <sys/types.h>

#include <cstddef>

namespace snare::util {

// Sends len bytes of data, and fd when it is >= 0. Returns what sendmsg returned.
ssize_t SendWithFd(int sock, const void* data, size_t len, int fd = -1);
// Receives one message into buf; *fd is the descriptor it carried (close-on-exec), or -1.
// Returns what recvmsg returned.
ssize_t ReceiveWithFd(int sock, void* buf, size_t len, int* fd);

}  // namespace snare::util

#endif  // SNARE_UTIL_FD_PASSING_H_
