// The snare kernel lab's in-guest program. As /init (PID 1) of the initramfs it mounts
// /proc and /dev, reads lab.* settings from /proc/cmdline, runs the checks and
// benchmarks, prints SNARE-LAB-* lines on the console (see lab_output.h) and powers the
// machine off. Run by hand (not PID 1) it takes --KEY=VALUE arguments instead and never
// mounts anything or powers off.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "kernel/guest/child_runner.h"
#include "kernel/guest/cpu_set.h"
#include "kernel/guest/file_text.h"
#include "kernel/guest/lab_benches.h"
#include "kernel/guest/lab_checks.h"
#include "kernel/guest/lab_output.h"
#include "kernel/guest/lab_settings.h"
#include "kernel/guest/selftest_runner.h"
#include "kernel/guest/sigqueue_count.h"

namespace snare::lab {
namespace {

class CheckTally {
 public:
  void Record(const std::string& name, const CheckResult& result) {
    EmitCheck(name, result.pass, result.detail);
    (result.pass ? passed_ : failed_) += 1;
  }
  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  int passed_ = 0;
  int failed_ = 0;
};

// Mounts /proc and /dev and makes sure fds 0-2 are the console. Returns what went
// wrong, for the console once there is one.
std::string SetUpAsInit() {
  std::string problems;
  mkdir("/proc", 0555);
  if (mount("proc", "/proc", "proc", 0, nullptr) != 0 && errno != EBUSY) {
    problems += std::string("mount /proc: ") + strerror(errno) + "; ";
  }
  mkdir("/dev", 0755);
  if (mount("devtmpfs", "/dev", "devtmpfs", 0, nullptr) != 0 && errno != EBUSY) {
    problems += std::string("mount /dev: ") + strerror(errno) + "; ";
  }
  // Without /dev/console in the initramfs the kernel starts us with no fds at all.
  if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
    int fd = open("/dev/console", O_RDWR | O_NOCTTY);
    if (fd < 0) {
      mknod("/dev/console", S_IFCHR | 0600, makedev(5, 1));
      fd = open("/dev/console", O_RDWR | O_NOCTTY);
    }
    if (fd >= 0) {
      for (int target = 0; target <= 2; ++target) {
        if (fd != target) dup2(fd, target);
      }
      if (fd > 2) close(fd);
    }
  }
  if (fcntl(STDERR_FILENO, F_GETFD) < 0) dup2(STDOUT_FILENO, STDERR_FILENO);
  return problems;
}

[[noreturn]] void PowerOff() {
  sync();
  reboot(RB_POWER_OFF);
  reboot(RB_HALT_SYSTEM);
  // PID 1 must never exit (the kernel would panic); wait for the host to stop us.
  for (;;) pause();
}

std::string BeginFields(const Settings& settings, int cpus, bool pid1) {
  utsname uts = {};
  uname(&uts);
  return std::string("{\"variant\":") + JsonString(settings.variant) +
         ",\"kernel\":" + JsonString(uts.release) + ",\"cpus\":" + std::to_string(cpus) +
         ",\"pid1\":" + (pid1 ? "true" : "false") +
         ",\"mode\":" + JsonString(ModeName(settings.mode)) +
         ",\"traps\":" + std::to_string(settings.traps) +
         ",\"maxdepth\":" + std::to_string(settings.max_depth) +
         ",\"reps\":" + std::to_string(settings.reps) +
         ",\"batch\":" + std::to_string(settings.batch) +
         ",\"contention\":" + (settings.contention ? "1" : "0") +
         ",\"ctraps\":" + std::to_string(settings.contention_traps) + "}";
}

int Run(int argc, char** argv) {
  const bool pid1 = getpid() == 1;
  std::string setup_problems;
  if (pid1) setup_problems = SetUpAsInit();
  Settings settings = pid1 ? ParseKernelCommandLine(ReadFileText("/proc/cmdline").value_or(""))
                           : ParseArguments(argc, argv);
  if (!pid1 && !settings.errors.empty()) {
    for (const std::string& error : settings.errors) WriteNote(error);
    WriteNote(
        "usage: lab-init [--variant=NAME] [--mode=checks|bench|all|selftests] [--traps=N] "
        "[--maxdepth=0..32] [--reps=N] [--batch=N] [--contention=0|1] [--ctraps=N] "
        "[--stscale=N]");
    return 2;
  }
  const int cpus = static_cast<int>(AllowedCpus().size());
  EmitBegin(BeginFields(settings, cpus, pid1));
  CheckTally tally;
  if (!setup_problems.empty()) tally.Record("init-setup", {false, setup_problems});
  if (!settings.errors.empty()) {
    std::string detail;
    for (const std::string& error : settings.errors) detail += error + "; ";
    tally.Record("settings", {false, detail + "defaults used for these"});
  }
  if (settings.mode == Mode::kProbe) {
    EmitEnd(tally.passed(), tally.failed());
    if (pid1) PowerOff();
    return 0;
  }
  auto start_count = ReadSettledSigQueueCount();

  if (settings.mode == Mode::kSelftests) {
    tally.Record("selftests-ran", RunSelftests("/selftests", settings.selftest_timeout_factor));
  } else if (settings.mode == Mode::kContention) {
    if (cpus > 1) {
      tally.Record("bench-contention", RunContention(settings));
    } else {
      tally.Record("bench-contention", {false, "contention needs more than one CPU"});
    }
  } else if (settings.mode != Mode::kBench) {
    for (const LabCheck& check : AllChecks()) tally.Record(check.name, check.run(settings));
  }
  if (settings.mode == Mode::kBench || settings.mode == Mode::kAll) {
    tally.Record("bench-depth", RunDepthSweep(settings));
    tally.Record("bench-ladder", RunLadder(settings));
    if (settings.contention && cpus > 1) {
      tally.Record("bench-contention", RunContention(settings));
    } else if (settings.contention) {
      WriteNote("contention suite skipped: only one CPU");
    }
  }

  auto end_count = ReadSettledSigQueueCount();
  if (!start_count || !end_count) {
    tally.Record("no-leak-overall", {false, "cannot read SigQ from /proc/self/status"});
  } else {
    bool same = start_count->queued == end_count->queued;
    tally.Record("no-leak-overall",
                 {same, "SigQ " + std::to_string(start_count->queued) + " at the start, " +
                            std::to_string(end_count->queued) + " at the end"});
  }
  EmitEnd(tally.passed(), tally.failed());
  if (pid1) PowerOff();
  return tally.failed() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace snare::lab

int main(int argc, char** argv) { return snare::lab::Run(argc, argv); }
