// Helpers shared by the syscall behaviour tests; see syscall_test_util.h.
#include "tests/syscalls/syscall_test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace snare_syscalls {

Pipe MakePipe(int flags) {
  int fds[2];
  if (pipe2(fds, flags) != 0) {
    ADD_FAILURE() << "pipe2: " << strerror(errno);
    return {};
  }
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

TempDir::TempDir() {
  const char* base = getenv("TEST_TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/syscalls-XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << templ << ": " << strerror(errno);
    return;
  }
  path_ = templ;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  nftw(
      path_.c_str(), [](const char* p, const struct stat*, int, struct FTW*) { return remove(p); },
      16, FTW_DEPTH | FTW_PHYS);
}

std::string TempDir::WriteFile(const std::string& name, const std::string& content, mode_t mode) {
  std::string file = path_ + "/" + name;
  UniqueFd fd(open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  EXPECT_TRUE(fd.valid()) << "open " << file << ": " << strerror(errno);
  EXPECT_EQ(write(fd.get(), content.data(), content.size()), static_cast<ssize_t>(content.size()));
  EXPECT_EQ(fchmod(fd.get(), mode), 0) << strerror(errno);
  return file;
}

int WaitStatus(pid_t pid) {
  int status = 0;
  pid_t r;
  while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (r != pid) {
    ADD_FAILURE() << "waitpid(" << pid << ") = " << r << ": " << strerror(errno);
    return -1;
  }
  return status;
}

std::string ReadAll(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, n);
  }
  return out;
}

void SleepMs(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000 * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

ScopedSigaction::ScopedSigaction(int sig, void (*handler)(int), int flags, const sigset_t* mask)
    : sig_(sig) {
  struct sigaction sa = {};
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  if (mask) {
    sa.sa_mask = *mask;
  } else {
    sigemptyset(&sa.sa_mask);
  }
  EXPECT_EQ(sigaction(sig, &sa, &old_), 0) << strerror(errno);
}

sigset_t SigsetOf(std::initializer_list<int> sigs) {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : sigs) sigaddset(&set, sig);
  return set;
}

ScopedThreadTimer::ScopedThreadTimer(int sig, long interval_ns) {
  sigevent sev = {};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = sig;
  sev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  armed_ = timer_create(CLOCK_MONOTONIC, &sev, &id_) == 0;
  EXPECT_TRUE(armed_) << "timer_create: " << strerror(errno);
  if (!armed_) return;
  itimerspec its = {};
  its.it_value.tv_sec = interval_ns / 1'000'000'000;
  its.it_value.tv_nsec = interval_ns % 1'000'000'000;
  its.it_interval = its.it_value;
  EXPECT_EQ(timer_settime(id_, 0, &its, nullptr), 0) << strerror(errno);
}

}  // namespace snare_syscalls
