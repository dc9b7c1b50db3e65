// Helpers shared by the syscall behaviour tests (//tests/syscalls:syscall_behaviour): owned
// file descriptors and pipes, a scratch directory, waiting for children, reading to EOF,
// sleeping and the monotonic clock, and scoped signal actions and masks. Each test restores
// what it changes in the process; these classes do that restoring.
#ifndef SNARE_TESTS_SYSCALLS_SYSCALL_TEST_UTIL_H_
#define SNARE_TESTS_SYSCALLS_SYSCALL_TEST_UTIL_H_

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace snare_syscalls {

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// A pipe with both ends close-on-exec; fails the current test (returning invalid fds) when
// pipe2 fails.
Pipe MakePipe(int flags = O_CLOEXEC);

// A fresh directory under $TEST_TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::string& path() const { return path_; }

  // Writes a file in this directory with the given content and mode; returns its path.
  std::string WriteFile(const std::string& name, const std::string& content, mode_t mode);

 private:
  std::string path_;
};

// Waits for pid, retrying on EINTR; returns the wait status, or -1 (after failing the test).
int WaitStatus(pid_t pid);

// Reads until EOF or error; the data read.
std::string ReadAll(int fd);

void SleepMs(long ms);

int64_t MonotonicNs();

// Restores a signal's action (and nothing else) when it goes out of scope.
class ScopedSigaction {
 public:
  ScopedSigaction(int sig, void (*handler)(int), int flags, const sigset_t* mask = nullptr);
  ScopedSigaction(const ScopedSigaction&) = delete;
  ScopedSigaction& operator=(const ScopedSigaction&) = delete;
  ~ScopedSigaction() { sigaction(sig_, &old_, nullptr); }

 private:
  int sig_;
  struct sigaction old_ = {};
};

// Restores the calling thread's signal mask when it goes out of scope.
class ScopedSigmask {
 public:
  ScopedSigmask() { pthread_sigmask(SIG_SETMASK, nullptr, &old_); }
  ScopedSigmask(const ScopedSigmask&) = delete;
  ScopedSigmask& operator=(const ScopedSigmask&) = delete;
  ~ScopedSigmask() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

sigset_t SigsetOf(std::initializer_list<int> sigs);

// A POSIX timer that sends `sig` to the calling thread (not the process, so no other thread
// can take it) every `interval_ns` nanoseconds; deleted when it goes out of scope.
class ScopedThreadTimer {
 public:
  ScopedThreadTimer(int sig, long interval_ns);
  ScopedThreadTimer(const ScopedThreadTimer&) = delete;
  ScopedThreadTimer& operator=(const ScopedThreadTimer&) = delete;
  ~ScopedThreadTimer() {
    if (armed_) timer_delete(id_);
  }

 private:
  timer_t id_ = {};
  bool armed_ = false;
};

}  // namespace snare_syscalls

#endif  // SNARE_TESTS_SYSCALLS_SYSCALL_TEST_UTIL_H_
