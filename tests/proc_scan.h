// Finds live processes through /proc, to check that snare leaves no guest or stub
// processes behind. Tests tag the processes they start with a unique environment entry so
// that concurrently running tests never see each other's processes.
#ifndef SNARE_TESTS_PROC_SCAN_H_
#define SNARE_TESTS_PROC_SCAN_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace snare::tests {

struct ProcessInfo {
  pid_t pid = 0;
  char state = '?';     // from /proc/PID/stat
  std::string cmdline;  // NUL separators shown as spaces
  std::string exe;      // readlink of /proc/PID/exe ("" when unreadable)
};

// A "NAME=VALUE" environment entry unique to this call (test pid, time, counter).
std::string UniqueEnvMarker(std::string_view name);

// Live (not zombie) processes other than the caller whose initial environment contains the
// exact entry `env_entry` ("NAME=VALUE").
std::vector<ProcessInfo> ProcessesWithEnv(std::string_view env_entry);

// Processes other than the caller, live or not, that are snare stubs: their exe is the
// "memfd:snare-stub" memfd or their argv[0] is "snare-stub".
std::vector<ProcessInfo> SnareStubProcesses();

// Restricts `processes` to those whose environment holds `env_entry`.
std::vector<ProcessInfo> WithEnv(const std::vector<ProcessInfo>& processes,
                                 std::string_view env_entry);

// One line per process: "pid=.. state=.. exe=.. cmdline=..".
std::string DescribeProcesses(const std::vector<ProcessInfo>& processes);

// Polls until no live process carries `env_entry` or `limit` passes; returns the survivors.
std::vector<ProcessInfo> WaitUntilGone(std::string_view env_entry,
                                       std::chrono::steady_clock::duration limit);

// SIGKILLs each process (cleanup after a failed check).
void KillProcesses(const std::vector<ProcessInfo>& processes);

}  // namespace snare::tests

#endif  // SNARE_TESTS_PROC_SCAN_H_
