#include "kernel/guest/selftest_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "kernel/guest/file_text.h"
#include "kernel/guest/lab_output.h"
#include "util/monotonic_clock.h"

namespace snare::lab {
namespace {

constexpr size_t kMaxFailedLines = 12;
constexpr size_t kMaxLineBytes = 160;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Console lines must stay printable ASCII: the host parses them as JSON text.
std::string Printable(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, kMaxLineBytes)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  return out;
}

struct Outcome {
  int exit_status = -1;
  int signal = 0;
  bool timed_out = false;
  double seconds = 0;
  SelftestCounts counts;
  std::string error;  // could not run it at all
};

Outcome RunOne(const std::string& path, int timeout_s) {
  Outcome outcome;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    outcome.error = std::string("pipe: ") + strerror(errno);
    return outcome;
  }
  const double t0 = util::MonotonicSeconds();
  pid_t pid = fork();
  if (pid < 0) {
    outcome.error = std::string("fork: ") + strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    // Tests write scratch files in their working folder.
    if (chdir("/tmp") != 0) _exit(126);
    const std::string program = path.substr(path.rfind('/') + 1);
    char* argv[] = {const_cast<char*>(program.c_str()), nullptr};
    char* envp[] = {const_cast<char*>("PATH=/bin:/sbin"), const_cast<char*>("HOME=/tmp"), nullptr};
    execve(path.c_str(), argv, envp);
    dprintf(STDERR_FILENO, "exec %s: %s\n", path.c_str(), strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(fds[1]);
  std::string pending;
  char buf[4096];
  auto take = [&](ssize_t n) {
    pending.append(buf, static_cast<size_t>(n));
    for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
      CountSelftestLine(std::string_view(pending).substr(0, nl), &outcome.counts);
    }
  };
  int status = 0;
  bool exited = false;
  for (;;) {
    if (util::MonotonicSeconds() - t0 >= timeout_s) {
      outcome.timed_out = true;
      break;
    }
    pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, 200);
    if (ready > 0) {
      ssize_t n = read(fds[0], buf, sizeof(buf));
      if (n > 0) {
        take(n);
        continue;
      }
      if (n == 0) break;  // every writer closed
      if (errno != EINTR) break;
    }
    // The test has exited, but a child it left may still hold the pipe: drain what is
    // there and stop.
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      fcntl(fds[0], F_SETFL, O_NONBLOCK);
      for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) take(n);
      break;
    }
  }
  if (!pending.empty() && !outcome.timed_out) CountSelftestLine(pending, &outcome.counts);
  close(fds[0]);
  // What the test left running dies with it.
  kill(-pid, SIGKILL);
  if (!exited) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  outcome.seconds = util::MonotonicSeconds() - t0;
  if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  // As /init we inherit the test's orphans: reap them.
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  return outcome;
}

}  // namespace

void CountSelftestLine(std::string_view line, SelftestCounts* counts) {
  auto failed = [&]() {
    if (counts->failed.size() < kMaxFailedLines) counts->failed.push_back(Printable(line));
  };
  if (StartsWith(line, "ok ")) {
    if (line.find("# SKIP") != std::string_view::npos) {
      ++counts->skip;
    } else {
      ++counts->ok;
    }
  } else if (StartsWith(line, "not ok ")) {
    if (line.find("# SKIP") != std::string_view::npos) {
      ++counts->skip;
    } else {
      ++counts->not_ok;
      failed();
    }
  } else if (StartsWith(line, "[OK]")) {
    ++counts->ok;
  } else if (StartsWith(line, "[FAIL]")) {
    ++counts->not_ok;
    failed();
  } else if (StartsWith(line, "[SKIP]")) {
    ++counts->skip;
  }
}

CheckResult RunSelftests(const std::string& dir, int timeout_factor) {
  auto list = ReadFileText((dir + "/timeouts").c_str());
  if (!list) return {false, "no " + dir + "/timeouts: the initramfs holds no selftests"};
  std::istringstream in(*list);
  std::string name;
  int timeout = 0, ran = 0, failed = 0;
  while (in >> name >> timeout) {
    WriteNote("selftest " + name);
    Outcome o = RunOne(dir + "/" + name, timeout * timeout_factor);
    ++ran;
    bool pass = o.error.empty() && !o.timed_out && o.signal == 0 &&
                (o.exit_status == 0 || o.exit_status == 4);
    failed += !pass;
    std::string line =
        "SNARE-LAB-SELFTEST {\"name\":" + JsonString(name) +
        ",\"exit\":" + std::to_string(o.exit_status) + ",\"signal\":" + std::to_string(o.signal) +
        ",\"timed_out\":" + (o.timed_out ? "true" : "false") +
        ",\"timeout_s\":" + std::to_string(timeout * timeout_factor) +
        ",\"ok\":" + std::to_string(o.counts.ok) +
        ",\"not_ok\":" + std::to_string(o.counts.not_ok) +
        ",\"skip\":" + std::to_string(o.counts.skip) + ",\"seconds\":" + JsonNumber(o.seconds, 1) +
        ",\"error\":" + JsonString(o.error) + ",\"failed\":[";
    for (size_t i = 0; i < o.counts.failed.size(); ++i) {
      line += (i ? "," : "") + JsonString(o.counts.failed[i]);
    }
    WriteLine(line + "]}");
  }
  if (ran == 0) return {false, dir + "/timeouts lists no selftest"};
  // A failing selftest is the host's to judge (against stock); running them is the check.
  return {true,
          std::to_string(ran) + " selftests ran, " + std::to_string(failed) + " did not pass"};
}

}  // namespace snare::lab
