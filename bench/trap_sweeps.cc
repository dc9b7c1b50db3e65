#include "bench/trap_sweeps.h"

#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "bench/trap_filter.h"
#include "util/monotonic_clock.h"

namespace snare::bench {
namespace {

double TrapNs(long calls) {
  for (long i = 0; i < calls / 10; ++i) syscall(SYS_getppid);
  double best[3];
  for (double& b : best) {
    double t0 = static_cast<double>(util::MonotonicNs());
    for (long i = 0; i < calls; ++i) syscall(SYS_getppid);
    b = (static_cast<double>(util::MonotonicNs()) - t0) / static_cast<double>(calls);
  }
  std::sort(best, best + 3);
  return best[1];
}

bool WriteFile(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// One more level: unshare, then map our outer ids to root inside (without the maps the next
// unshare fails with EPERM).
std::expected<void, std::string> EnterUserNamespace() {
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (unshare(CLONE_NEWUSER) != 0) {
    return std::unexpected(std::string("unshare(CLONE_NEWUSER): ") + strerror(errno));
  }
  if (!WriteFile("/proc/self/setgroups", "deny") ||
      !WriteFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
      !WriteFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
    return std::unexpected(std::string("writing uid/gid maps: ") + strerror(errno));
  }
  return {};
}

void Pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof(set), &set);
}

}  // namespace

int CallerUserNamespaceDepth() {
  int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
  int depth = 0;
  while (fd >= 0) {
    int parent = ioctl(fd, NS_GET_PARENT);
    close(fd);
    fd = parent;
    if (parent >= 0) ++depth;
  }
  return depth;
}

std::expected<std::vector<DepthPoint>, std::string> RunDepthSweep(int max_depth, int step,
                                                                  long calls) {
  if (max_depth < 0 || max_depth > kMaxUserNamespaceDepth) {
    return std::unexpected("depth " + std::to_string(max_depth) + " is out of range 0.." +
                           std::to_string(kMaxUserNamespaceDepth));
  }
  if (step < 1) return std::unexpected(std::string("depth step must be at least 1"));
  int caller = CallerUserNamespaceDepth();
  if (caller + max_depth > kMaxUserNamespaceDepth) {
    return std::unexpected("this process is already " + std::to_string(caller) +
                           " user namespaces deep: at most " +
                           std::to_string(kMaxUserNamespaceDepth - caller) + " more levels");
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return std::unexpected(std::string("PR_SET_NO_NEW_PRIVS: ") + strerror(errno));
  }
  auto installed = InstallTrapFilter(FilterMode::kTrap, {SYS_getppid});
  if (!installed) return std::unexpected(installed.error());
  std::vector<DepthPoint> points;
  for (int depth = 0; depth <= max_depth; ++depth) {
    if (depth % step == 0 || depth == max_depth) points.push_back({depth, TrapNs(calls)});
    if (depth == max_depth) break;
    auto entered = EnterUserNamespace();
    if (!entered) {
      return std::unexpected("at depth " + std::to_string(caller + depth + 1) + ": " +
                             entered.error());
    }
  }
  return points;
}

std::expected<ContentionMode, std::string> ParseContentionMode(std::string_view name) {
  if (name == "same-ns") return ContentionMode::kSameNamespace;
  if (name == "sibling-ns") return ContentionMode::kSiblingNamespaces;
  if (name == "distinct-uid") return ContentionMode::kDistinctUids;
  return std::unexpected("unknown contention mode '" + std::string(name) +
                         "' (same-ns, sibling-ns, distinct-uid)");
}

std::string_view ContentionModeName(ContentionMode mode) {
  switch (mode) {
    case ContentionMode::kSameNamespace:
      return "same-ns";
    case ContentionMode::kSiblingNamespaces:
      return "sibling-ns";
    case ContentionMode::kDistinctUids:
      return "distinct-uid";
  }
  return "?";
}

std::expected<std::vector<double>, std::string> RunContention(ContentionMode mode, int tasks,
                                                              double seconds) {
  if (tasks < 1 || tasks > 1024) return std::unexpected(std::string("tasks must be 1..1024"));
  if (!(seconds > 0)) return std::unexpected(std::string("seconds must be positive"));
  if (mode == ContentionMode::kDistinctUids && geteuid() != 0) {
    return std::unexpected(std::string("distinct-uid needs root (it gives each task uid 2000+i)"));
  }
  const long ncpu = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  // rates[i] per task; rates[tasks] is the start flag.
  auto* shared =
      static_cast<double*>(mmap(nullptr, sizeof(double) * (tasks + 1), PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (shared == MAP_FAILED) return std::unexpected(std::string("mmap: ") + strerror(errno));
  int ready[2], go[2];
  if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) {
    return std::unexpected(std::string("pipe: ") + strerror(errno));
  }
  std::vector<pid_t> pids;
  for (int i = 0; i < tasks; ++i) {
    pid_t pid = fork();
    if (pid < 0) return std::unexpected(std::string("fork: ") + strerror(errno));
    if (pid == 0) {
      close(ready[0]);
      close(go[1]);
      Pin(static_cast<int>(i % ncpu));
      bool ok = true;
      if (mode == ContentionMode::kSiblingNamespaces) ok = EnterUserNamespace().has_value();
      if (mode == ContentionMode::kDistinctUids) {
        gid_t g = static_cast<gid_t>(2000 + i);
        uid_t u = static_cast<uid_t>(2000 + i);
        ok = setresgid(g, g, g) == 0 && setresuid(u, u, u) == 0;
      }
      ok = ok && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           InstallTrapFilter(FilterMode::kTrap, {SYS_getppid}).has_value();
      char c = ok ? 1 : 0;
      (void)!write(ready[1], &c, 1);
      if (!ok) _exit(1);
      (void)!read(go[0], &c, 1);
      long count = 0;
      double t0 = static_cast<double>(util::MonotonicNs()), end = t0 + seconds * 1e9, now = t0;
      while (now < end) {
        for (int k = 0; k < 256; ++k) syscall(SYS_getppid);
        count += 256;
        now = static_cast<double>(util::MonotonicNs());
      }
      shared[i] = static_cast<double>(count) / ((now - t0) / 1e9);
      _exit(0);
    }
    pids.push_back(pid);
  }
  close(ready[1]);
  close(go[0]);
  bool all_ready = true;
  for (int i = 0; i < tasks; ++i) {
    char c = 0;
    if (read(ready[0], &c, 1) != 1 || c != 1) all_ready = false;
  }
  close(go[1]);  // EOF starts everyone at once
  close(ready[0]);
  bool all_ok = true;
  for (pid_t pid : pids) {
    int status;
    waitpid(pid, &status, 0);
    all_ok = all_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  std::vector<double> rates(shared, shared + tasks);
  munmap(shared, sizeof(double) * (tasks + 1));
  if (!all_ready || !all_ok) {
    return std::unexpected("a " + std::string(ContentionModeName(mode)) +
                           " task could not set up (user namespace, uid or filter)");
  }
  return rates;
}

}  // namespace snare::bench
