// Focused checks of system call behaviour that an interposer must preserve, in the style of
// gVisor's syscall tests. The binary is built once and run both natively and under
// `snare run --platform=systrap|inproc` (see //tests:syscall_behaviour_runner_test) with the
// same assertions: anything that passes natively and fails under snare is a snare bug.
//
// Each TEST checks one behaviour. Tests restore what they change in the process (signal
// actions, masks, the alternate signal stack, the thread name, timers) and children they
// fork always leave with _exit().
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

extern char** environ;

// The kernel's SA_RESTORER flag (glibc does not export it to programs).
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

namespace snare_syscalls {
namespace {

// ---------------------------------------------------------------------------------------
// Helpers.

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
Pipe MakePipe(int flags = O_CLOEXEC) {
  int fds[2];
  if (pipe2(fds, flags) != 0) {
    ADD_FAILURE() << "pipe2: " << strerror(errno);
    return {};
  }
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// A fresh directory under $TEST_TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir() {
    const char* base = getenv("TEST_TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/syscalls-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp " << templ << ": " << strerror(errno);
      return;
    }
    path_ = templ;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (path_.empty()) return;
    nftw(
        path_.c_str(),
        [](const char* p, const struct stat*, int, struct FTW*) { return remove(p); }, 16,
        FTW_DEPTH | FTW_PHYS);
  }

  const std::string& path() const { return path_; }

  // Writes a file in this directory with the given content and mode; returns its path.
  std::string WriteFile(const std::string& name, const std::string& content, mode_t mode) {
    std::string file = path_ + "/" + name;
    UniqueFd fd(open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    EXPECT_TRUE(fd.valid()) << "open " << file << ": " << strerror(errno);
    EXPECT_EQ(write(fd.get(), content.data(), content.size()),
              static_cast<ssize_t>(content.size()));
    EXPECT_EQ(fchmod(fd.get(), mode), 0) << strerror(errno);
    return file;
  }

 private:
  std::string path_;
};

// Waits for pid, retrying on EINTR; returns the wait status, or -1 (after failing the test).
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

// Reads until EOF or error; the data read.
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

// Restores a signal's action (and nothing else) when it goes out of scope.
class ScopedSigaction {
 public:
  ScopedSigaction(int sig, void (*handler)(int), int flags, const sigset_t* mask = nullptr)
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

sigset_t SigsetOf(std::initializer_list<int> sigs) {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : sigs) sigaddset(&set, sig);
  return set;
}

// Forks a child that calls execve(path) and reports its errno through a close-on-exec pipe.
// Returns that errno, 0 if the execve succeeded (EOF on the pipe), or -1 on a test error.
int ExecveErrnoInChild(const std::string& path) {
  Pipe p = MakePipe(O_CLOEXEC);
  if (!p.write_end.valid()) return -1;
  pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << strerror(errno);
    return -1;
  }
  if (pid == 0) {
    char* const argv[] = {const_cast<char*>(path.c_str()), nullptr};
    execve(path.c_str(), argv, environ);
    int err = errno;
    ssize_t ignored = write(p.write_end.get(), &err, sizeof(err));
    (void)ignored;
    _exit(0);
  }
  p.write_end.reset();
  int err = 0;
  ssize_t n;
  while ((n = read(p.read_end.get(), &err, sizeof(err))) < 0 && errno == EINTR) {
  }
  int status = WaitStatus(pid);
  if (n == 0) return 0;
  if (n != sizeof(err)) {
    ADD_FAILURE() << "short read of the child's errno: " << n;
    return -1;
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  return err;
}

// ---------------------------------------------------------------------------------------
// File descriptors: pipe, openat, close, dup*, close_range.

TEST(PipeTest, WriteThenReadReturnsTheData) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "hello", 5), 5);
  char buf[16] = {};
  ASSERT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 5);
  EXPECT_STREQ(buf, "hello");
}

TEST(PipeTest, ReadReturnsZeroAtEofAfterWriterCloses) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "x", 1), 1);
  p.write_end.reset();
  char buf[4];
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 1);
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 0);
}

TEST(OpenatTest, MissingFileIsEnoent) {
  TempDir dir;
  std::string missing = dir.path() + "/does-not-exist";
  errno = 0;
  EXPECT_EQ(openat(AT_FDCWD, missing.c_str(), O_RDONLY | O_CLOEXEC), -1);
  EXPECT_EQ(errno, ENOENT) << strerror(errno);
}

TEST(OpenatTest, DirectoryForWritingIsEisdir) {
  TempDir dir;
  errno = 0;
  EXPECT_EQ(openat(AT_FDCWD, dir.path().c_str(), O_WRONLY | O_CLOEXEC), -1);
  EXPECT_EQ(errno, EISDIR) << strerror(errno);
}

TEST(CloseTest, ClosingAClosedFdIsEbadf) {
  Pipe p = MakePipe();
  int fd = p.read_end.release();
  ASSERT_EQ(close(fd), 0);
  errno = 0;
  EXPECT_EQ(close(fd), -1);
  EXPECT_EQ(errno, EBADF) << strerror(errno);
}

TEST(DupTest, DupReturnsLowestFreeFdSharingTheFile) {
  Pipe p = MakePipe();
  UniqueFd copy(dup(p.write_end.get()));
  ASSERT_TRUE(copy.valid()) << strerror(errno);
  EXPECT_NE(copy.get(), p.write_end.get());
  // The lowest free descriptor: nothing below it may be free.
  for (int fd = 0; fd < copy.get(); ++fd) EXPECT_NE(fcntl(fd, F_GETFD), -1) << "fd " << fd;
  ASSERT_EQ(write(copy.get(), "d", 1), 1);
  char c = 0;
  ASSERT_EQ(read(p.read_end.get(), &c, 1), 1);
  EXPECT_EQ(c, 'd');
  // dup() never sets close-on-exec.
  EXPECT_EQ(fcntl(copy.get(), F_GETFD), 0);
}

TEST(DupTest, Dup2OntoChosenFdReplacesIt) {
  Pipe a = MakePipe();
  Pipe b = MakePipe();
  ASSERT_EQ(dup2(a.write_end.get(), b.write_end.get()), b.write_end.get()) << strerror(errno);
  // b's write end now writes into pipe a.
  ASSERT_EQ(write(b.write_end.get(), "2", 1), 1);
  char c = 0;
  ASSERT_EQ(read(a.read_end.get(), &c, 1), 1);
  EXPECT_EQ(c, '2');
  // dup2 of an fd onto itself returns it unchanged.
  EXPECT_EQ(dup2(a.write_end.get(), a.write_end.get()), a.write_end.get());
}

TEST(DupTest, Dup3SetsCloexecAndRejectsSameFd) {
  Pipe a = MakePipe(0);
  Pipe b = MakePipe(0);
  ASSERT_EQ(dup3(a.write_end.get(), b.write_end.get(), O_CLOEXEC), b.write_end.get())
      << strerror(errno);
  EXPECT_EQ(fcntl(b.write_end.get(), F_GETFD), FD_CLOEXEC);
  errno = 0;
  EXPECT_EQ(dup3(a.write_end.get(), a.write_end.get(), 0), -1);
  EXPECT_EQ(errno, EINVAL) << strerror(errno);
}

TEST(CloseRangeTest, ChildKeepsStdoutAfterClosingFromThree) {
  Pipe p = MakePipe(0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) _exit(10);
    // Everything from 3 up is gone...
    if (fcntl(p.read_end.get(), F_GETFD) != -1 || errno != EBADF) _exit(11);
    // ...and the process still works: stdout is writable and syscalls still return.
    static const char kLine[] = "close_range child: stdout still open\n";
    if (write(STDOUT_FILENO, kLine, sizeof(kLine) - 1) != sizeof(kLine) - 1) _exit(12);
    if (getppid() <= 0) _exit(13);
    _exit(0);
  }
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// ---------------------------------------------------------------------------------------
// Processes: fork, waitpid, kill, vfork, posix_spawn, execve.

TEST(ForkTest, WaitpidReportsExitStatus) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) _exit(42);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 42);
}

TEST(ForkTest, KillSigtermIsReportedAsSignaled) {
  Pipe ready = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    ready.read_end.reset();
    ready.write_end.reset();  // EOF tells the parent the child runs
    for (;;) pause();
  }
  ready.write_end.reset();
  char c;
  EXPECT_EQ(read(ready.read_end.get(), &c, 1), 0);
  ASSERT_EQ(kill(pid, SIGTERM), 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(ForkTest, ChildGetppidIsParentGetpid) {
  Pipe p = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    pid_t parent = getppid();
    _exit(write(p.write_end.get(), &parent, sizeof(parent)) == sizeof(parent) ? 0 : 1);
  }
  p.write_end.reset();
  pid_t reported = 0;
  EXPECT_EQ(read(p.read_end.get(), &reported, sizeof(reported)),
            static_cast<ssize_t>(sizeof(reported)));
  int status = WaitStatus(pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(reported, getpid());
}

TEST(VforkTest, ChildExitStatusIsReported) {
  pid_t pid = vfork();
  if (pid == 0) _exit(7);
  ASSERT_GT(pid, 0) << strerror(errno);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST(PosixSpawnTest, BinTrueExitsZero) {
  pid_t pid = 0;
  char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
  ASSERT_EQ(posix_spawn(&pid, "/bin/true", nullptr, nullptr, argv, environ), 0);
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ExecveTest, MissingPathIsEnoent) {
  TempDir dir;
  EXPECT_EQ(ExecveErrnoInChild(dir.path() + "/no-such-program"), ENOENT);
}

TEST(ExecveTest, DirectoryIsEacces) {
  TempDir dir;
  EXPECT_EQ(ExecveErrnoInChild(dir.path()), EACCES);
}

TEST(ExecveTest, NonExecutableFileIsEacces) {
  TempDir dir;
  std::string file = dir.WriteFile("not-executable", "#!/bin/sh\necho no\n", 0644);
  EXPECT_EQ(ExecveErrnoInChild(file), EACCES);
}

TEST(ExecveTest, ExecutableGarbageIsEnoexec) {
  TempDir dir;
  std::string garbage(256, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(0x80 + i % 97);
  std::string file = dir.WriteFile("garbage", garbage, 0755);
  EXPECT_EQ(ExecveErrnoInChild(file), ENOEXEC);
}

TEST(ExecveTest, ShebangScriptRunsUnderItsInterpreter) {
  TempDir dir;
  std::string script =
      dir.WriteFile("script.sh", "#!/bin/sh\necho \"script-marker $1\"\nexit 5\n", 0755);
  Pipe out = MakePipe();
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    if (dup2(out.write_end.get(), STDOUT_FILENO) != STDOUT_FILENO) _exit(120);
    char* const argv[] = {const_cast<char*>(script.c_str()), const_cast<char*>("arg1"), nullptr};
    execve(script.c_str(), argv, environ);
    _exit(121);
  }
  out.write_end.reset();
  std::string output = ReadAll(out.read_end.get());
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 5);
  EXPECT_EQ(output, "script-marker arg1\n");
}

// ---------------------------------------------------------------------------------------
// Threads. (glibc 2.36's pthread_create uses clone3, so this also covers clone3 threads.)

struct ThreadReport {
  pid_t tid = 0;
  pid_t pid = 0;
  bool pipe_round_trip = false;
};

void* ThreadBody(void* arg) {
  auto* report = static_cast<ThreadReport*>(arg);
  report->tid = static_cast<pid_t>(syscall(SYS_gettid));
  report->pid = getpid();
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return nullptr;
  char out[8];
  memcpy(out, &report->tid, sizeof(report->tid));
  char in[8] = {};
  report->pipe_round_trip = write(fds[1], out, sizeof(report->tid)) == sizeof(report->tid) &&
                            read(fds[0], in, sizeof(in)) == sizeof(report->tid) &&
                            memcmp(in, out, sizeof(report->tid)) == 0 && getppid() > 0;
  close(fds[0]);
  close(fds[1]);
  return nullptr;
}

TEST(PthreadTest, SixteenThreadsRunSyscallsAndJoin) {
  constexpr int kThreads = 16;
  std::vector<ThreadReport> reports(kThreads);
  std::vector<pthread_t> threads(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_EQ(pthread_create(&threads[i], nullptr, ThreadBody, &reports[i]), 0);
  }
  for (int i = 0; i < kThreads; ++i) ASSERT_EQ(pthread_join(threads[i], nullptr), 0);
  std::set<pid_t> tids;
  for (const ThreadReport& r : reports) {
    EXPECT_EQ(r.pid, getpid());
    EXPECT_NE(r.tid, getpid());
    EXPECT_TRUE(r.pipe_round_trip);
    tids.insert(r.tid);
  }
  EXPECT_EQ(tids.size(), static_cast<size_t>(kThreads)) << "thread ids are not distinct";
}

TEST(GettidTest, MainThreadTidIsPid) { EXPECT_EQ(syscall(SYS_gettid), getpid()); }

// ---------------------------------------------------------------------------------------
// Signals.

std::atomic<int> g_sigalrm_count{0};
std::atomic<pid_t> g_sigalrm_tid{0};
void CountSigalrm(int) {
  g_sigalrm_tid.store(static_cast<pid_t>(syscall(SYS_gettid)));
  g_sigalrm_count.fetch_add(1);
}

// Arms ITIMER_REAL to fire every ms milliseconds (periodic, so that a blocking call is
// interrupted even when the first expiry comes before the call blocks); disarms it when it
// goes out of scope.
class ScopedRealTimer {
 public:
  explicit ScopedRealTimer(long ms) {
    itimerval it = {};
    it.it_value.tv_sec = ms / 1000;
    it.it_value.tv_usec = (ms % 1000) * 1000;
    it.it_interval = it.it_value;
    EXPECT_EQ(setitimer(ITIMER_REAL, &it, nullptr), 0) << strerror(errno);
  }
  ScopedRealTimer(const ScopedRealTimer&) = delete;
  ScopedRealTimer& operator=(const ScopedRealTimer&) = delete;
  ~ScopedRealTimer() {
    itimerval off = {};
    setitimer(ITIMER_REAL, &off, nullptr);
  }
};

TEST(SignalTest, SigalrmInterruptsPipeReadWithEintrWithoutSaRestart) {
  ScopedSigaction action(SIGALRM, CountSigalrm, 0);
  Pipe p = MakePipe();
  int before = g_sigalrm_count.load();
  ScopedRealTimer timer(20);
  char buf[8];
  errno = 0;
  ssize_t n = read(p.read_end.get(), buf, sizeof(buf));
  int err = errno;
  EXPECT_EQ(n, -1);
  EXPECT_EQ(err, EINTR) << strerror(err);
  EXPECT_GE(g_sigalrm_count.load() - before, 1);
}

// A POSIX timer that sends SIGALRM to the calling thread (not the process, so no other
// thread can take it) every ms milliseconds; deleted when it goes out of scope.
class ScopedThreadTimer {
 public:
  explicit ScopedThreadTimer(long ms) {
    sigevent sev = {};
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGALRM;
    sev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
    armed_ = timer_create(CLOCK_MONOTONIC, &sev, &id_) == 0;
    EXPECT_TRUE(armed_) << "timer_create: " << strerror(errno);
    if (!armed_) return;
    itimerspec its = {};
    its.it_value.tv_nsec = ms * 1000000;
    its.it_interval = its.it_value;
    EXPECT_EQ(timer_settime(id_, 0, &its, nullptr), 0) << strerror(errno);
  }
  ScopedThreadTimer(const ScopedThreadTimer&) = delete;
  ScopedThreadTimer& operator=(const ScopedThreadTimer&) = delete;
  ~ScopedThreadTimer() {
    if (armed_) timer_delete(id_);
  }

 private:
  timer_t id_ = {};
  bool armed_ = false;
};

struct DelayedWriter {
  int fd;
  int alarm_count_before;
};

void* WriteAfterAlarms(void* arg) {
  auto* w = static_cast<DelayedWriter*>(arg);
  // Waits (at most 5 s) until the SIGALRM handler has run three times in the reader, which
  // by then blocks in read(), then writes.
  for (int i = 0; i < 5000 && g_sigalrm_count.load() - w->alarm_count_before < 3; ++i) {
    SleepMs(1);
  }
  ssize_t ignored = write(w->fd, "restarted", 9);
  (void)ignored;
  return nullptr;
}

TEST(SignalTest, SigalrmWithSaRestartRestartsPipeRead) {
  ScopedSigaction action(SIGALRM, CountSigalrm, SA_RESTART);
  Pipe p = MakePipe();
  DelayedWriter writer{p.write_end.get(), g_sigalrm_count.load()};
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, nullptr, WriteAfterAlarms, &writer), 0);
  char buf[16] = {};
  ssize_t n;
  int err;
  {
    ScopedThreadTimer timer(10);
    errno = 0;
    n = read(p.read_end.get(), buf, sizeof(buf) - 1);
    err = errno;
  }
  pthread_join(thread, nullptr);
  EXPECT_EQ(n, 9) << "errno " << strerror(err);
  EXPECT_STREQ(buf, "restarted");
  EXPECT_GE(g_sigalrm_count.load() - writer.alarm_count_before, 3);
  EXPECT_EQ(g_sigalrm_tid.load(), syscall(SYS_gettid))
      << "the thread-directed SIGALRM was handled on another thread";
}

std::atomic<int> g_sigusr2_count{0};
void CountSigusr2(int) { g_sigusr2_count.fetch_add(1); }

TEST(SignalTest, BlockedSignalStaysPendingAndIsDeliveredOnUnblock) {
  ScopedSigaction action(SIGUSR2, CountSigusr2, 0);
  ScopedSigmask restore;
  sigset_t usr2 = SigsetOf({SIGUSR2});
  ASSERT_EQ(sigprocmask(SIG_BLOCK, &usr2, nullptr), 0);
  int before = g_sigusr2_count.load();
  ASSERT_EQ(raise(SIGUSR2), 0);
  EXPECT_EQ(g_sigusr2_count.load(), before) << "delivered while blocked";
  sigset_t pending;
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_TRUE(sigismember(&pending, SIGUSR2));
  ASSERT_EQ(sigprocmask(SIG_UNBLOCK, &usr2, nullptr), 0);
  EXPECT_EQ(g_sigusr2_count.load() - before, 1) << "not delivered when unblocked";
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_FALSE(sigismember(&pending, SIGUSR2));
}

TEST(SignalTest, SigprocmaskReadsBackTheBlockedSet) {
  ScopedSigmask restore;
  sigset_t set = SigsetOf({SIGUSR1, SIGUSR2, SIGWINCH});
  ASSERT_EQ(sigprocmask(SIG_SETMASK, &set, nullptr), 0);
  sigset_t now;
  ASSERT_EQ(sigprocmask(SIG_SETMASK, nullptr, &now), 0);
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    EXPECT_EQ(sigismember(&now, sig), sigismember(&set, sig)) << "signal " << sig;
  }
}

void Sigusr1InfoHandler(int, siginfo_t*, void*) {}
void OtherSigusr1Handler(int) {}

TEST(SigactionTest, OldActionRoundTripsForSigusr1) {
  struct sigaction saved = {};
  ASSERT_EQ(sigaction(SIGUSR1, nullptr, &saved), 0);
  struct sigaction sa = {};
  sa.sa_sigaction = Sigusr1InfoHandler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
  sa.sa_mask = SigsetOf({SIGUSR2, SIGTERM});
  ASSERT_EQ(sigaction(SIGUSR1, &sa, nullptr), 0);

  struct sigaction other = {};
  other.sa_handler = OtherSigusr1Handler;
  sigemptyset(&other.sa_mask);
  struct sigaction old = {};
  ASSERT_EQ(sigaction(SIGUSR1, &other, &old), 0);
  EXPECT_EQ(old.sa_sigaction, &Sigusr1InfoHandler);
  // glibc adds SA_RESTORER to every action it installs.
  EXPECT_EQ(old.sa_flags & ~SA_RESTORER, SA_SIGINFO | SA_RESTART | SA_NODEFER);
  EXPECT_TRUE(sigismember(&old.sa_mask, SIGUSR2));
  EXPECT_TRUE(sigismember(&old.sa_mask, SIGTERM));
  EXPECT_FALSE(sigismember(&old.sa_mask, SIGINT));

  struct sigaction now = {};
  ASSERT_EQ(sigaction(SIGUSR1, &saved, &now), 0);
  EXPECT_EQ(now.sa_handler, &OtherSigusr1Handler);
}

// The kernel's struct sigaction for rt_sigaction(2) on x86-64.
struct KernelSigaction {
  void* handler;
  unsigned long flags;
  void* restorer;
  uint64_t mask;
};

extern "C" void DummyRestorer() {}

TEST(SigactionTest, RawRtSigactionReadsBackHandlerFlagsRestorerAndMask) {
  KernelSigaction saved = {};
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, nullptr, &saved, 8), 0) << strerror(errno);
  KernelSigaction set = {};
  set.handler = reinterpret_cast<void*>(&OtherSigusr1Handler);
  set.flags = SA_RESTORER | SA_RESTART;
  set.restorer = reinterpret_cast<void*>(&DummyRestorer);
  set.mask = 1ULL << (SIGUSR2 - 1);
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, &set, nullptr, 8), 0) << strerror(errno);
  KernelSigaction got = {};
  ASSERT_EQ(syscall(SYS_rt_sigaction, SIGUSR1, &saved, &got, 8), 0) << strerror(errno);
  EXPECT_EQ(got.handler, set.handler);
  EXPECT_EQ(got.flags, set.flags);
  EXPECT_EQ(got.restorer, set.restorer);
  EXPECT_EQ(got.mask, set.mask);
}

// Disables the alternate signal stack when it goes out of scope.
class ScopedAltStack {
 public:
  explicit ScopedAltStack(size_t size) : size_(size) {
    void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(mem, MAP_FAILED) << strerror(errno);
    base_ = mem == MAP_FAILED ? nullptr : static_cast<char*>(mem);
    // Start from an explicitly disabled stack: the kernel's state after sigaltstack(
    // SS_DISABLE) differs from a never-configured one (whether the parent process had
    // disabled one is inherited), and the outcome must not depend on the environment.
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    EXPECT_EQ(sigaltstack(&off, &old_), 0) << strerror(errno);
    stack_t ss = {};
    ss.ss_sp = base_;
    ss.ss_size = size_;
    ss.ss_flags = 0;
    EXPECT_EQ(sigaltstack(&ss, nullptr), 0) << strerror(errno);
  }
  ScopedAltStack(const ScopedAltStack&) = delete;
  ScopedAltStack& operator=(const ScopedAltStack&) = delete;
  ~ScopedAltStack() {
    sigaltstack(&old_, nullptr);
    if (base_) munmap(base_, size_);
  }

  char* base() const { return base_; }
  size_t size() const { return size_; }

 private:
  char* base_ = nullptr;
  size_t size_;
  stack_t old_ = {};
};

constexpr size_t kAltStackSize = 256 * 1024;

TEST(SigaltstackTest, QueryReturnsTheStackThatWasSet) {
  ScopedAltStack alt(kAltStackSize);
  stack_t now = {};
  ASSERT_EQ(sigaltstack(nullptr, &now), 0) << strerror(errno);
  EXPECT_EQ(now.ss_sp, alt.base());
  EXPECT_EQ(now.ss_size, alt.size());
  EXPECT_EQ(now.ss_flags, 0) << "not SS_ONSTACK or SS_DISABLE outside a handler";
}

std::atomic<uintptr_t> g_handler_sp{0};
std::atomic<int> g_handler_ss_flags{0};

void RecordStackPointer(int) {
  volatile char local = 0;
  g_handler_sp.store(reinterpret_cast<uintptr_t>(&local));
  stack_t now = {};
  g_handler_ss_flags.store(sigaltstack(nullptr, &now) == 0 ? now.ss_flags : -1);
}

TEST(SigaltstackTest, SaOnstackHandlerRunsOnTheAltStack) {
  ScopedAltStack alt(kAltStackSize);
  ScopedSigaction action(SIGUSR1, RecordStackPointer, SA_ONSTACK);
  g_handler_sp.store(0);
  ASSERT_EQ(raise(SIGUSR1), 0);
  uintptr_t sp = g_handler_sp.load();
  uintptr_t lo = reinterpret_cast<uintptr_t>(alt.base());
  EXPECT_GE(sp, lo);
  EXPECT_LT(sp, lo + alt.size());
  EXPECT_EQ(g_handler_ss_flags.load(), SS_ONSTACK);
}

std::atomic<int> g_sigusr1_count{0};
void CountSigusr1(int) { g_sigusr1_count.fetch_add(1); }

void* SendSigusr1ToMainThread(void* arg) {
  SleepMs(10);
  pthread_kill(*static_cast<pthread_t*>(arg), SIGUSR1);
  return nullptr;
}

TEST(SigsuspendTest, WakesOnSignalAndRestoresMask) {
  ScopedSigaction action(SIGUSR1, CountSigusr1, 0);
  ScopedSigmask restore;
  sigset_t usr1 = SigsetOf({SIGUSR1});
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &usr1, nullptr), 0);
  int before = g_sigusr1_count.load();
  pthread_t self = pthread_self();
  pthread_t sender;
  ASSERT_EQ(pthread_create(&sender, nullptr, SendSigusr1ToMainThread, &self), 0);
  sigset_t wait_mask;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &wait_mask), 0);
  sigdelset(&wait_mask, SIGUSR1);
  errno = 0;
  EXPECT_EQ(sigsuspend(&wait_mask), -1);
  EXPECT_EQ(errno, EINTR) << strerror(errno);
  pthread_join(sender, nullptr);
  EXPECT_EQ(g_sigusr1_count.load() - before, 1);
  sigset_t now;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &now), 0);
  EXPECT_TRUE(sigismember(&now, SIGUSR1)) << "sigsuspend did not restore the mask";
}

// ---------------------------------------------------------------------------------------
// Memory: mmap, mprotect, munmap, mremap, madvise, brk.

TEST(MmapTest, AnonymousMappingIsZeroedAndWritable) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<unsigned char*>(mem);
  for (size_t i = 0; i < 4 * page; i += 512) EXPECT_EQ(bytes[i], 0) << "offset " << i;
  memset(bytes, 0xab, 4 * page);
  EXPECT_EQ(bytes[4 * page - 1], 0xab);
  EXPECT_EQ(munmap(mem, 4 * page), 0) << strerror(errno);
}

TEST(MmapTest, MunmappedRangeIsNoLongerMapped) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  unsigned char vec = 0;
  EXPECT_EQ(mincore(mem, page, &vec), 0) << strerror(errno);
  ASSERT_EQ(munmap(mem, page), 0) << strerror(errno);
  errno = 0;
  EXPECT_EQ(mincore(mem, page, &vec), -1);
  EXPECT_EQ(errno, ENOMEM) << strerror(errno);
}

TEST(MprotectTest, ReadOnlyPageKeepsDataAndFaultsOnWrite) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<volatile unsigned char*>(mem);
  bytes[0] = 0x5a;
  ASSERT_EQ(mprotect(mem, page, PROT_READ), 0) << strerror(errno);
  EXPECT_EQ(bytes[0], 0x5a);
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    signal(SIGSEGV, SIG_DFL);
    bytes[0] = 1;  // faults
    _exit(0);
  }
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGSEGV);
  EXPECT_EQ(munmap(mem, page), 0);
}

TEST(MremapTest, GrowKeepsContentsAndAddsZeroedPages) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  memset(mem, 0x3c, page);
  void* grown = mremap(mem, page, 4 * page, MREMAP_MAYMOVE);
  ASSERT_NE(grown, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<unsigned char*>(grown);
  EXPECT_EQ(bytes[0], 0x3c);
  EXPECT_EQ(bytes[page - 1], 0x3c);
  EXPECT_EQ(bytes[page], 0);
  EXPECT_EQ(bytes[4 * page - 1], 0);
  bytes[4 * page - 1] = 1;  // the new pages are writable
  EXPECT_EQ(munmap(grown, 4 * page), 0);
}

TEST(MadviseTest, DontneedZeroesAnonymousPrivatePage) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<volatile unsigned char*>(mem);
  bytes[0] = 0x77;
  bytes[page - 1] = 0x77;
  ASSERT_EQ(madvise(mem, page, MADV_DONTNEED), 0) << strerror(errno);
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[page - 1], 0);
  EXPECT_EQ(munmap(mem, page), 0);
}

TEST(BrkTest, QueryReturnsNonZeroBreak) {
  long brk0 = syscall(SYS_brk, 0);
  EXPECT_NE(brk0, 0);
  EXPECT_EQ(syscall(SYS_brk, 0), brk0) << "brk(0) is not stable";
}

// ---------------------------------------------------------------------------------------
// Identity, time, randomness.

TEST(UnameTest, SysnameIsLinux) {
  utsname u = {};
  ASSERT_EQ(uname(&u), 0) << strerror(errno);
  EXPECT_STREQ(u.sysname, "Linux");
  EXPECT_STREQ(u.machine, "x86_64");
  EXPECT_GT(strlen(u.release), 0u);
}

TEST(GetrandomTest, FillsSixteenBytes) {
  unsigned char a[16] = {};
  unsigned char b[16] = {};
  ASSERT_EQ(getrandom(a, sizeof(a), 0), static_cast<ssize_t>(sizeof(a))) << strerror(errno);
  ASSERT_EQ(getrandom(b, sizeof(b), 0), static_cast<ssize_t>(sizeof(b))) << strerror(errno);
  EXPECT_NE(memcmp(a, b, sizeof(a)), 0) << "two getrandom calls returned the same 16 bytes";
}

TEST(ClockGettimeTest, MonotonicIncreases) {
  // The raw syscall, so that it enters the kernel (the libc call uses the vDSO).
  timespec a = {};
  timespec b = {};
  ASSERT_EQ(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a), 0) << strerror(errno);
  SleepMs(1);
  ASSERT_EQ(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b), 0) << strerror(errno);
  int64_t delta = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
  EXPECT_GE(delta, 1000000) << "monotonic clock advanced " << delta << " ns over a 1 ms sleep";
  EXPECT_GE(b.tv_nsec, 0);
  EXPECT_LT(b.tv_nsec, 1000000000);
}

TEST(NanosleepTest, SleepsAtLeastOneMillisecond) {
  int64_t start = MonotonicNs();
  timespec req = {0, 1000000};
  timespec rem = {};
  ASSERT_EQ(nanosleep(&req, &rem), 0) << strerror(errno);
  EXPECT_GE(MonotonicNs() - start, 1000000);
}

// ---------------------------------------------------------------------------------------
// Bad pointers.

TEST(FaultTest, ReadIntoBadPointerIsEfault) {
  Pipe p = MakePipe();
  ASSERT_EQ(write(p.write_end.get(), "data", 4), 4);
  // volatile: the compiler may neither see nor check the bad destination.
  void* volatile bad = reinterpret_cast<void*>(1);
  errno = 0;
  EXPECT_EQ(read(p.read_end.get(), bad, 4), -1);
  EXPECT_EQ(errno, EFAULT) << strerror(errno);
  // The data is still there for a good buffer.
  char buf[4];
  EXPECT_EQ(read(p.read_end.get(), buf, sizeof(buf)), 4);
}

// ---------------------------------------------------------------------------------------
// Sockets, polling, event fds.

TEST(ScmRightsTest, SendmsgPassesAPipeFdThatStillWorks) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0) << strerror(errno);
  UniqueFd a(sv[0]);
  UniqueFd b(sv[1]);
  Pipe p = MakePipe();

  char payload = 'F';
  iovec iov = {&payload, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int));
  int passed = p.write_end.get();
  memcpy(CMSG_DATA(cmsg), &passed, sizeof(int));
  ASSERT_EQ(sendmsg(a.get(), &msg, 0), 1) << strerror(errno);

  char got = 0;
  iovec riov = {&got, 1};
  alignas(cmsghdr) char rcontrol[CMSG_SPACE(sizeof(int))] = {};
  msghdr rmsg = {};
  rmsg.msg_iov = &riov;
  rmsg.msg_iovlen = 1;
  rmsg.msg_control = rcontrol;
  rmsg.msg_controllen = sizeof(rcontrol);
  ASSERT_EQ(recvmsg(b.get(), &rmsg, MSG_CMSG_CLOEXEC), 1) << strerror(errno);
  EXPECT_EQ(got, 'F');
  EXPECT_EQ(rmsg.msg_flags & MSG_CTRUNC, 0);
  cmsghdr* rcmsg = CMSG_FIRSTHDR(&rmsg);
  ASSERT_NE(rcmsg, nullptr);
  ASSERT_EQ(rcmsg->cmsg_level, SOL_SOCKET);
  ASSERT_EQ(rcmsg->cmsg_type, SCM_RIGHTS);
  int received_fd = -1;
  memcpy(&received_fd, CMSG_DATA(rcmsg), sizeof(int));
  UniqueFd received(received_fd);
  ASSERT_TRUE(received.valid());
  EXPECT_NE(received.get(), p.write_end.get());
  EXPECT_EQ(fcntl(received.get(), F_GETFD), FD_CLOEXEC);
  // The received descriptor is the pipe's write end.
  p.write_end.reset();
  ASSERT_EQ(write(received.get(), "via-fd", 6), 6);
  received.reset();
  EXPECT_EQ(ReadAll(p.read_end.get()), "via-fd");
}

TEST(EpollTest, WaitReportsReadablePipe) {
  UniqueFd ep(epoll_create1(EPOLL_CLOEXEC));
  ASSERT_TRUE(ep.valid()) << strerror(errno);
  Pipe p = MakePipe();
  epoll_event ev = {};
  ev.events = EPOLLIN;
  ev.data.u64 = 0x1234567890abcdefULL;
  ASSERT_EQ(epoll_ctl(ep.get(), EPOLL_CTL_ADD, p.read_end.get(), &ev), 0) << strerror(errno);
  epoll_event out[4] = {};
  EXPECT_EQ(epoll_wait(ep.get(), out, 4, 0), 0) << "empty pipe reported readable";
  ASSERT_EQ(write(p.write_end.get(), "e", 1), 1);
  ASSERT_EQ(epoll_wait(ep.get(), out, 4, 1000), 1) << strerror(errno);
  EXPECT_EQ(out[0].events, static_cast<uint32_t>(EPOLLIN));
  EXPECT_EQ(out[0].data.u64, 0x1234567890abcdefULL);
}

TEST(PollTest, ZeroTimeoutReturnsImmediately) {
  Pipe p = MakePipe();
  pollfd fds[2] = {{p.read_end.get(), POLLIN, 0}, {p.write_end.get(), POLLOUT, 0}};
  int64_t start = MonotonicNs();
  ASSERT_EQ(poll(fds, 1, 0), 0) << strerror(errno);
  EXPECT_EQ(fds[0].revents, 0);
  EXPECT_LT(MonotonicNs() - start, 100 * 1000000LL);
  ASSERT_EQ(poll(fds, 2, 0), 1) << strerror(errno);
  EXPECT_EQ(fds[0].revents, 0);
  EXPECT_EQ(fds[1].revents, POLLOUT);
}

TEST(EventfdTest, WritesAddUpAndNonblockingReadOfZeroIsEagain) {
  UniqueFd efd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  ASSERT_TRUE(efd.valid()) << strerror(errno);
  uint64_t value = 3;
  ASSERT_EQ(write(efd.get(), &value, sizeof(value)), static_cast<ssize_t>(sizeof(value)));
  value = 4;
  ASSERT_EQ(write(efd.get(), &value, sizeof(value)), static_cast<ssize_t>(sizeof(value)));
  uint64_t got = 0;
  ASSERT_EQ(read(efd.get(), &got, sizeof(got)), static_cast<ssize_t>(sizeof(got)));
  EXPECT_EQ(got, 7u);
  errno = 0;
  EXPECT_EQ(read(efd.get(), &got, sizeof(got)), -1);
  EXPECT_EQ(errno, EAGAIN) << strerror(errno);
}

TEST(TimerfdTest, BlockingReadReturnsExpirationAfterTheTimeout) {
  UniqueFd tfd(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  ASSERT_TRUE(tfd.valid()) << strerror(errno);
  itimerspec its = {};
  its.it_value.tv_nsec = 10 * 1000000;  // 10 ms, one shot
  int64_t start = MonotonicNs();
  ASSERT_EQ(timerfd_settime(tfd.get(), 0, &its, nullptr), 0) << strerror(errno);
  uint64_t expirations = 0;
  ASSERT_EQ(read(tfd.get(), &expirations, sizeof(expirations)),
            static_cast<ssize_t>(sizeof(expirations)))
      << strerror(errno);
  EXPECT_EQ(expirations, 1u);
  EXPECT_GE(MonotonicNs() - start, 10 * 1000000LL);
  itimerspec now = {};
  ASSERT_EQ(timerfd_gettime(tfd.get(), &now), 0);
  EXPECT_EQ(now.it_value.tv_sec, 0);
  EXPECT_EQ(now.it_value.tv_nsec, 0) << "a one-shot timer is disarmed after it fired";
}

// ---------------------------------------------------------------------------------------
// prctl and /proc.

// Restores the calling thread's name when it goes out of scope.
class ScopedThreadName {
 public:
  ScopedThreadName() { prctl(PR_GET_NAME, saved_, 0, 0, 0); }
  ScopedThreadName(const ScopedThreadName&) = delete;
  ScopedThreadName& operator=(const ScopedThreadName&) = delete;
  ~ScopedThreadName() { prctl(PR_SET_NAME, saved_, 0, 0, 0); }

 private:
  char saved_[16] = {};
};

TEST(PrctlTest, SetNameThenGetNameRoundTrips) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "snare-prctl", 0, 0, 0), 0) << strerror(errno);
  char name[16] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, name, 0, 0, 0), 0) << strerror(errno);
  EXPECT_STREQ(name, "snare-prctl");
}

TEST(PrctlTest, SetNameTruncatesToFifteenBytes) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "0123456789abcdefghij", 0, 0, 0), 0) << strerror(errno);
  char name[32] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, name, 0, 0, 0), 0) << strerror(errno);
  EXPECT_STREQ(name, "0123456789abcde");
}

TEST(ProcSelfCommTest, EqualsTheNameSetWithPrctl) {
  ScopedThreadName restore;
  ASSERT_EQ(prctl(PR_SET_NAME, "snare-comm", 0, 0, 0), 0) << strerror(errno);
  std::ifstream comm("/proc/self/comm");
  ASSERT_TRUE(comm.good());
  std::string content((std::istreambuf_iterator<char>(comm)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "snare-comm\n");
}

}  // namespace
}  // namespace snare_syscalls
