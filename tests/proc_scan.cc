#include "tests/proc_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <thread>

namespace snare::tests {
namespace {

// What can be read of path; empty when it cannot be opened. Not an ifstream: reading a
// /proc file of a process that exits meanwhile fails with ESRCH, which libstdc++'s filebuf
// turns into an exception.
std::string ReadWholeFile(const std::string& path) {
  std::string out;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

bool HasNulSeparatedEntry(const std::string& data, std::string_view entry) {
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\0', start);
    if (end == std::string::npos) end = data.size();
    if (std::string_view(data).substr(start, end - start) == entry) return true;
    start = end + 1;
  }
  return false;
}

ProcessInfo ReadProcess(pid_t pid) {
  ProcessInfo info;
  info.pid = pid;
  std::string dir = "/proc/" + std::to_string(pid);
  std::string stat = ReadWholeFile(dir + "/stat");
  size_t paren = stat.rfind(')');
  if (paren != std::string::npos && paren + 2 < stat.size()) info.state = stat[paren + 2];
  info.cmdline = ReadWholeFile(dir + "/cmdline");
  while (!info.cmdline.empty() && info.cmdline.back() == '\0') info.cmdline.pop_back();
  for (char& c : info.cmdline) {
    if (c == '\0') c = ' ';
  }
  char exe[PATH_MAX];
  ssize_t n = readlink((dir + "/exe").c_str(), exe, sizeof(exe) - 1);
  if (n > 0) info.exe.assign(exe, n);
  return info;
}

std::vector<pid_t> AllPidsButSelf() {
  std::vector<pid_t> pids;
  DIR* d = opendir("/proc");
  if (!d) return pids;
  pid_t self = getpid();
  while (dirent* e = readdir(d)) {
    if (!isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    pid_t pid = static_cast<pid_t>(atoi(e->d_name));
    if (pid != self) pids.push_back(pid);
  }
  closedir(d);
  return pids;
}

bool EnvironHas(pid_t pid, std::string_view env_entry) {
  return HasNulSeparatedEntry(ReadWholeFile("/proc/" + std::to_string(pid) + "/environ"),
                              env_entry);
}

}  // namespace

std::string UniqueEnvMarker(std::string_view name) {
  static std::atomic<int> counter{0};
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  std::ostringstream out;
  out << name << "=" << getpid() << "-" << ts.tv_sec << "-" << ts.tv_nsec << "-" << counter++;
  return out.str();
}

std::vector<ProcessInfo> ProcessesWithEnv(std::string_view env_entry) {
  std::vector<ProcessInfo> found;
  for (pid_t pid : AllPidsButSelf()) {
    if (!EnvironHas(pid, env_entry)) continue;
    ProcessInfo info = ReadProcess(pid);
    if (info.state == 'Z' || info.state == 'X') continue;
    found.push_back(std::move(info));
  }
  return found;
}

std::vector<ProcessInfo> SnareStubProcesses() {
  std::vector<ProcessInfo> found;
  for (pid_t pid : AllPidsButSelf()) {
    ProcessInfo info = ReadProcess(pid);
    bool stub_exe = info.exe.find("memfd:snare-stub") != std::string::npos;
    bool stub_argv0 = info.cmdline == "snare-stub" || info.cmdline.starts_with("snare-stub ");
    if (stub_exe || stub_argv0) found.push_back(std::move(info));
  }
  return found;
}

std::vector<ProcessInfo> WithEnv(const std::vector<ProcessInfo>& processes,
                                 std::string_view env_entry) {
  std::vector<ProcessInfo> out;
  for (const ProcessInfo& p : processes) {
    if (EnvironHas(p.pid, env_entry)) out.push_back(p);
  }
  return out;
}

std::string DescribeProcesses(const std::vector<ProcessInfo>& processes) {
  std::string out;
  for (const ProcessInfo& p : processes) {
    out += "  pid=" + std::to_string(p.pid) + " state=" + p.state + " exe=" + p.exe +
           " cmdline=" + p.cmdline + "\n";
  }
  return out.empty() ? "  (none)\n" : out;
}

void KillProcesses(const std::vector<ProcessInfo>& processes) {
  for (const ProcessInfo& p : processes) kill(p.pid, SIGKILL);
}

std::vector<ProcessInfo> WaitUntilGone(std::string_view env_entry,
                                       std::chrono::steady_clock::duration limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  std::vector<ProcessInfo> left;
  do {
    left = ProcessesWithEnv(env_entry);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < end);
  return left;
}

}  // namespace snare::tests
