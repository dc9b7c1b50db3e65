// confine_probe ACTION ARG...: one thing a sandbox must refuse, done with a single syscall,
// then one line "ACTION ARG: ok" or "ACTION ARG: ENAME" on stdout. Exit status 0 either way:
// the caller judges the outcome.
//   read PATH      open(PATH, O_RDONLY) and read a byte
//   write PATH     open(PATH, O_WRONLY | O_CREAT | O_EXCL)
//   connect PORT   a TCP connect to 127.0.0.1:PORT
//   kill PID       kill(PID, SIGKILL)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

int Attempt(const std::string& action, const char* arg) {
  if (action == "read") {
    int fd = open(arg, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    char c;
    return read(fd, &c, 1) < 0 ? errno : 0;
  }
  if (action == "write") {
    int fd = open(arg, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    return fd < 0 ? errno : 0;
  }
  if (action == "connect") {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return errno;
    sockaddr_in addr = {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(atoi(arg)));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ? errno : 0;
  }
  if (action == "kill") return kill(static_cast<pid_t>(atol(arg)), SIGKILL) != 0 ? errno : 0;
  fprintf(stderr, "confine_probe: unknown action '%s'\n", action.c_str());
  exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: confine_probe read|write|connect|kill ARG\n");
    return 2;
  }
  int err = Attempt(argv[1], argv[2]);
  const char* name = err ? strerrorname_np(err) : nullptr;
  printf("%s %s: %s\n", argv[1], argv[2], err ? (name ? name : "E?") : "ok");
  return 0;
}
