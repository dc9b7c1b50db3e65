// Escape attacks as a hostile guest would write them (//tests/guests:attack_guest): each runs
// under `snare run` with snare's default options plus the flags the attack is about, on both
// platforms, as root and as uid/gid 65534, and the test checks that the attack's forbidden
// EFFECT is absent: a file created, a process left or killed, a line missing, a forged
// number shown, bytes injected into a terminal. How snare prevents it is not checked: a
// guest killed by SIGSYS or refused with an errno passes.
//
// The runfiles live under /root (0700), so snare and the guest run from copies in a fresh
// world-readable directory, and every run works in a scratch directory of its own, both
// under /var/tmp (a confined guest gets a private /tmp, where it would find neither); the
// unprivileged runs drop to 65534 in the child that starts snare.
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tests/proc_scan.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uid_t kUnprivilegedUid = 65534;
constexpr gid_t kUnprivilegedGid = 65534;
constexpr std::chrono::seconds kRunTimeout{60};
constexpr char kScratchRoot[] = "/var/tmp";

// A fresh directory under kScratchRoot that every user can read; empty on failure.
std::string MakeScratchDir(const std::string& prefix) {
  std::string templ = std::string(kScratchRoot) + "/" + prefix + "XXXXXX";
  if (!mkdtemp(templ.data()) || chmod(templ.c_str(), 0755) != 0) return "";
  return templ;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool WriteFile(const std::string& path, const std::string& data, mode_t mode) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  return out.good() && chmod(path.c_str(), mode) == 0;
}

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string Head(const std::string& text, size_t max = 4000) {
  return text.size() > max ? text.substr(0, max) + "\n[...]" : text;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A line of snare's own ("snare: ...", not a trace line) that says trace lines were lost.
bool SaysLinesWereDropped(const std::string& output) {
  for (std::string line : SplitLines(output)) {
    if (!line.starts_with("snare")) continue;
    std::transform(line.begin(), line.end(), line.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* word : {"drop", "lost", "discard", "skipp", "missing", "truncat"}) {
      if (line.find(word) != std::string::npos) return true;
    }
  }
  return false;
}

// snare and attack_guest, copied once into a world-readable directory under kScratchRoot.
struct Binaries {
  std::string dir, snare, guest, error;
};

const Binaries& CopiedBinaries() {
  static const Binaries binaries = [] {
    Binaries b;
    auto snare = SnareBinary();
    auto guest = GuestPath("attack_guest");
    if (!snare || !guest) {
      b.error = !snare ? snare.error() : guest.error();
      return b;
    }
    b.dir = MakeScratchDir("snare-escape-bin-");
    if (b.dir.empty()) {
      b.error = std::string("mkdtemp under ") + kScratchRoot + ": " + strerror(errno);
      return b;
    }
    b.snare = b.dir + "/snare";
    b.guest = b.dir + "/attack_guest";
    if (!WriteFile(b.snare, ReadFile(*snare), 0755) ||
        !WriteFile(b.guest, ReadFile(*guest), 0755)) {
      b.error = "cannot copy snare and attack_guest to " + b.dir;
    }
    return b;
  }();
  return binaries;
}

class RemoveCopiedBinaries : public ::testing::Environment {
 public:
  void TearDown() override {
    const Binaries& b = CopiedBinaries();
    std::error_code ignored;
    if (!b.dir.empty()) std::filesystem::remove_all(b.dir, ignored);
  }
};
[[maybe_unused]] ::testing::Environment* const kRemoveCopies =
    ::testing::AddGlobalTestEnvironment(new RemoveCopiedBinaries);

// One snare run: what was run, how to run it again, what came back.
struct Run {
  std::vector<std::string> argv;
  std::string reproducer;
  util::SubprocessResult result;
  std::string terminal;  // what arrived elsewhere (the pty master, a FIFO), when it matters
};

// Everything one test sets up: scratch directories (removed afterwards), the runs, and the
// processes it started (killed afterwards).
class AttackEnv {
 public:
  AttackEnv(std::string platform, bool unprivileged)
      : platform_(std::move(platform)),
        unprivileged_(unprivileged),
        marker_(UniqueEnvMarker("SNARE_SANDBOX_ESCAPE_TEST")) {
    const Binaries& b = CopiedBinaries();
    if (!b.error.empty()) {
      error_ = b.error;
      return;
    }
    base_ = MakeScratchDir("snare-escape-");
    if (base_.empty()) {
      error_ = std::string("mkdtemp under ") + kScratchRoot + ": " + strerror(errno);
      return;
    }
    work_ = base_ + "/work";
    outside_ = base_ + "/outside";
    // The guest's working directory is its own, and writable whatever uid snare gives it.
    if (!MakeDir(work_, 0777) || !MakeDir(outside_, 0755)) error_ = "cannot set up " + base_;
  }

  ~AttackEnv() {
    KillProcesses(ProcessesWithEnv(marker_));
    std::error_code ignored;
    if (!base_.empty()) std::filesystem::remove_all(base_, ignored);
  }

  const std::string& error() const { return error_; }
  const std::string& work() const { return work_; }        // the guest's cwd
  const std::string& outside() const { return outside_; }  // the user's, not the guest's
  const std::string& base() const { return base_; }

  // Makes a directory (or file) the user's: root's or 65534's.
  bool GiveToUser(const std::string& path) const {
    return !unprivileged_ || chown(path.c_str(), kUnprivilegedUid, kUnprivilegedGid) == 0;
  }

  // Options for a process run as the user, in the guest's working directory.
  util::SubprocessOptions Options() const {
    util::SubprocessOptions options;
    options.timeout = kRunTimeout;
    options.cwd = work_;
    options.extra_env = {marker_};
    if (unprivileged_) {
      options.uid = kUnprivilegedUid;
      options.gid = kUnprivilegedGid;
    }
    return options;
  }

  // `snare run --platform=P FLAGS -- attack_guest GUEST_ARGS` (systrap-patch: systrap with
  // --patch, so every attack also meets patched sites), behind `wrapper` (a shell that
  // redirects stderr) when given.
  std::vector<std::string> SnareArgv(const std::vector<std::string>& flags,
                                     const std::vector<std::string>& guest_args,
                                     const std::vector<std::string>& wrapper = {}) const {
    const Binaries& b = CopiedBinaries();
    std::vector<std::string> argv = wrapper;
    argv.insert(argv.end(), {b.snare, "run"});
    for (const std::string& f : PlatformFlags(platform_)) argv.push_back(f);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", b.guest});
    argv.insert(argv.end(), guest_args.begin(), guest_args.end());
    return argv;
  }

  Run& RunSnare(const std::vector<std::string>& flags, const std::vector<std::string>& guest_args,
                const util::SubprocessOptions& options,
                const std::vector<std::string>& wrapper = {}) {
    Run run;
    run.argv = SnareArgv(flags, guest_args, wrapper);
    run.reproducer = Reproducer(run.argv, options);
    run.result = util::RunSubprocess(run.argv, options);
    runs_.push_back(std::move(run));
    return runs_.back();
  }

  Run& RunSnare(const std::vector<std::string>& flags, const std::vector<std::string>& guest_args) {
    return RunSnare(flags, guest_args, Options());
  }

  // One line per run: its status and the guest's "attack" lines.
  std::string Summary() const {
    std::string out;
    for (const Run& run : runs_) {
      out += "  status " + std::to_string(run.result.status) +
             (run.result.timed_out ? " (timed out)" : "") + ":";
      std::vector<std::string> lines = SplitLines(run.result.stdout_data);
      for (size_t i = 0; i < lines.size() && i < 8; ++i) out += " | " + lines[i].substr(0, 160);
      out += "\n";
    }
    return out;
  }

  // A description of every run, for failure messages.
  std::string Report() const {
    std::string out;
    for (const Run& run : runs_) {
      out += "reproduce: " + run.reproducer + "\n" + run.result.Describe();
      if (!run.terminal.empty()) {
        out += "--- terminal / stderr stream (" + std::to_string(run.terminal.size()) +
               " bytes) ---\n" + Head(run.terminal) + "\n---\n";
      }
    }
    return out;
  }

 private:
  bool MakeDir(const std::string& path, mode_t mode) const {
    return mkdir(path.c_str(), mode) == 0 && chmod(path.c_str(), mode) == 0 && GiveToUser(path);
  }

  std::string Reproducer(std::vector<std::string> argv,
                         const util::SubprocessOptions& options) const {
    const Binaries& b = CopiedBinaries();
    for (std::string& arg : argv) {
      if (arg == b.snare) arg = "bazel-bin/cmd/snare";
      if (arg == b.guest) arg = "bazel-bin/tests/guests/attack_guest";
    }
    const std::string work = util::ShellQuote({work_});
    std::string out = "(mkdir -p -m 777 " + work + " && cd " + work + " && ";
    if (unprivileged_) out += "setpriv --reuid=65534 --regid=65534 --clear-groups -- ";
    out += util::ShellQuote(ForDisplay(argv)) + ")";
    if (!options.controlling_tty.empty()) out += "  # on a terminal as stdin";
    if (unprivileged_) out += "  # binaries copied where uid 65534 can read them";
    return out;
  }

  std::string platform_;
  bool unprivileged_;
  std::string marker_;
  std::string error_;
  std::string base_, work_, outside_;
  std::deque<Run> runs_;  // references to a Run stay valid
};

// Empty when the guest got to the attack (its "attack NAME: started" line: it may have been
// killed or refused after that); otherwise why the run says nothing about the attack.
std::string GuestDidNotRun(const Run& run, const std::string& attack) {
  const util::SubprocessResult& r = run.result;
  if (r.stdout_data.find("attack " + attack + ": started") != std::string::npos) return "";
  return "the guest did not get to the attack (status " + std::to_string(r.status) +
         (r.timed_out ? ", timed out" : "") + (r.start_error.empty() ? "" : ", " + r.start_error) +
         ")";
}

// Each attack sets up, runs snare and returns what forbidden effect it saw ("" for none).
using AttackFn = std::string (*)(AttackEnv&);

std::string Selftest(AttackEnv& env) {
  const Run& run = env.RunSnare({}, {"selftest"});
  if (run.result.status == 0 &&
      run.result.stdout_data.find("attack selftest: ok") != std::string::npos) {
    return "";
  }
  return "harness: selftest under snare did not exit 0 with its line (status " +
         std::to_string(run.result.status) + ")";
}

// gadget_mkdir, sigreturn_gadget: mkdir from the stub's text with mkdir killed.
std::string StubMkdir(AttackEnv& env, const std::string& attack) {
  const std::string dir = attack + "-dir";
  const Run& run = env.RunSnare({"--kill=mkdir", "--kill=mkdirat"}, {attack, dir});
  if (std::string e = GuestDidNotRun(run, attack); !e.empty()) return e;
  if (Exists(env.work() + "/" + dir)) {
    return dir + " was created despite --kill=mkdir --kill=mkdirat";
  }
  return "";
}

std::string GadgetMkdir(AttackEnv& env) { return StubMkdir(env, "gadget_mkdir"); }
std::string SigreturnGadget(AttackEnv& env) { return StubMkdir(env, "sigreturn_gadget"); }

// gadget_sigaction, frame_toctou, frame_nr_forge, fake_header: the guest's own SIGSYS handler
// must not run.
std::string OwnSigsysHandler(AttackEnv& env, const std::string& attack,
                             const std::vector<std::string>& args) {
  std::vector<std::string> guest_args = {attack};
  guest_args.insert(guest_args.end(), args.begin(), args.end());
  const Run& run = env.RunSnare({}, guest_args);
  if (std::string e = GuestDidNotRun(run, attack); !e.empty()) return e;
  if (run.result.stdout_data.find("own-sigsys-handler-ran") != std::string::npos) {
    return "the guest's own SIGSYS handler ran";
  }
  for (const std::string& dir : args) {
    if (Exists(env.work() + "/" + dir)) {
      return "the guest's own SIGSYS handler ran (made " + dir + ")";
    }
  }
  return "";
}

std::string GadgetSigaction(AttackEnv& env) {
  return OwnSigsysHandler(env, "gadget_sigaction", {"own-handler-dir"});
}
std::string FrameToctou(AttackEnv& env) { return OwnSigsysHandler(env, "frame_toctou", {}); }
std::string FakeHeader(AttackEnv& env) { return OwnSigsysHandler(env, "fake_header", {}); }
std::string FrameNrForge(AttackEnv& env) { return OwnSigsysHandler(env, "frame_nr_forge", {}); }

std::string ProcMem(AttackEnv& env) {
  const Run& run = env.RunSnare({}, {"proc_mem"});
  if (std::string e = GuestDidNotRun(run, "proc_mem"); !e.empty()) return e;
  const std::string& out = run.result.stdout_data;
  size_t at = out.find("wrote-mem ");
  if (at == std::string::npos) return "";
  return "the guest wrote into another process's memory (" +
         out.substr(at, out.find('\n', at) - at) + ")";
}

std::string KillHost(AttackEnv& env) {
  // A process of the same user outside the sandbox.
  const std::string host_marker = UniqueEnvMarker("SNARE_SANDBOX_ESCAPE_HOST");
  util::SubprocessOptions host_options = env.Options();
  host_options.extra_env.push_back(host_marker);
  host_options.timeout = std::chrono::seconds(0);
  util::Subprocess host;  // killed when it goes out of scope
  if (!host.Start({"sleep", "600"}, host_options)) return "harness: cannot start the host process";
  const Run& run = env.RunSnare({}, {"kill_host", std::to_string(host.pid())});
  if (std::string e = GuestDidNotRun(run, "kill_host"); !e.empty()) return e;
  if (ProcessesWithEnv(host_marker).empty()) {
    return "the host process " + std::to_string(host.pid()) + " (sleep 600) was killed";
  }
  return "";
}

// A terminal for snare's stdin (and, through a shell, its stderr), owned by the user.
bool OpenTerminal(AttackEnv& env, util::PseudoTerminal* pty, std::string* error) {
  if (!pty->Open(error)) return false;
  if (!env.GiveToUser(pty->slave_path())) {
    *error = "chown " + pty->slave_path() + ": " + strerror(errno);
    return false;
  }
  return true;
}

std::string Tiocsti(AttackEnv& env) {
  util::PseudoTerminal pty;
  std::string error;
  if (!OpenTerminal(env, &pty, &error)) return "harness: " + error;
  // Raw: whatever is queued for the slave can be read, a whole line or not.
  termios tio;
  if (tcgetattr(pty.slave(), &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(pty.slave(), TCSANOW, &tio);
  }
  util::SubprocessOptions options = env.Options();
  options.controlling_tty = pty.slave_path();
  Run& run = env.RunSnare({}, {"tiocsti"}, options);
  if (std::string e = GuestDidNotRun(run, "tiocsti"); !e.empty()) return e;
  fcntl(pty.slave(), F_SETFL, fcntl(pty.slave(), F_GETFL) | O_NONBLOCK);
  std::string input;
  char buf[4096];
  for (ssize_t n; (n = read(pty.slave(), buf, sizeof(buf))) > 0;) input.append(buf, n);
  run.terminal = "input queued on the terminal: " + input;
  if (input.empty()) return "";
  return "bytes were injected into the terminal's input: \"" + Head(input, 200) + "\"";
}

// Reads `fd` in a thread, `read_size` bytes at a time with `pause_per_read` after each read,
// until end of file or Stop().
class Drainer {
 public:
  Drainer(int fd, std::chrono::microseconds pause_per_read, size_t read_size)
      : thread_([this, fd, pause_per_read, read_size] {
          std::vector<char> buf(read_size);
          for (;;) {
            pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 100) <= 0) {
              if (stop_) break;
              continue;
            }
            ssize_t n = read(fd, buf.data(), buf.size());
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
            if (n < 0) continue;
            {
              std::lock_guard<std::mutex> lock(mu_);
              data_.append(buf.data(), static_cast<size_t>(n));
            }
            if (pause_per_read.count()) std::this_thread::sleep_for(pause_per_read);
          }
          done_ = true;
        }) {}
  ~Drainer() { Stop(); }

  // Waits up to `limit` for end of file.
  void WaitForEof(std::chrono::seconds limit) {
    for (auto end = Clock::now() + limit; !done_ && Clock::now() < end;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  std::string Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    std::lock_guard<std::mutex> lock(mu_);
    return data_;
  }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::string data_;
  std::thread thread_;
};

std::string Tcooff(AttackEnv& env) {
  util::PseudoTerminal pty;
  std::string error;
  if (!OpenTerminal(env, &pty, &error)) return "harness: " + error;
  fcntl(pty.master(), F_SETFL, fcntl(pty.master(), F_GETFL) | O_NONBLOCK);
  Drainer drain(pty.master(), std::chrono::microseconds(0), 65536);
  std::optional<Clock::time_point> guest_done;
  util::SubprocessOptions options = env.Options();
  options.controlling_tty = pty.slave_path();
  options.on_line = [&guest_done](const std::string& line) {
    if (line.find("attack tcooff: done") != std::string::npos) guest_done = Clock::now();
  };
  // stderr (the trace) on the terminal too.
  Run& run =
      env.RunSnare({"--trace"}, {"tcooff"}, options, {"/bin/sh", "-c", "exec \"$@\" 2>&0", "sh"});
  const Clock::time_point exited = Clock::now();
  run.terminal = drain.Stop();
  if (run.result.timed_out) {
    return std::string("snare hung: still running after ") + std::to_string(kRunTimeout.count()) +
           " s (the guest " + (guest_done ? "was done" : "never got done") + ")";
  }
  if (std::string e = GuestDidNotRun(run, "tcooff"); !e.empty()) return e;
  if (guest_done && exited - *guest_done > std::chrono::seconds(30)) {
    return "snare exited more than 30 s after the guest was done";
  }
  const size_t lines = Count(run.terminal, "getppid() = ");
  if (guest_done && lines < 20000 && !SaysLinesWereDropped(run.terminal + run.result.stderr_data)) {
    return "only " + std::to_string(lines) +
           " of 20000 getppid trace lines reached the terminal, and snare did not say lines were "
           "lost";
  }
  return "";
}

// The getppid count the stats JSON holds as authoritative: snare names the field
// ("authoritative": "FIELD", in the document or the row) or says that none is (null: inproc
// counts only in guest memory); without the key (today) it is "calls".
struct AuthoritativeCount {
  bool none_claimed = false;
  std::string field = "calls";
  std::optional<uint64_t> value;  // nullopt: no getppid row (or field)
};

AuthoritativeCount AuthoritativeGetppidCalls(const nlohmann::json& doc) {
  AuthoritativeCount count;
  if (!doc.is_object() || !doc.contains("syscalls") || !doc["syscalls"].is_array()) return count;
  for (const nlohmann::json& row : doc["syscalls"]) {
    if (!row.is_object() || row.value("name", "") != "getppid") continue;
    for (const nlohmann::json* named : {&doc, &row}) {
      if (!named->contains("authoritative")) continue;
      const nlohmann::json& a = (*named)["authoritative"];
      count.none_claimed = a.is_null();
      if (a.is_string()) count.field = a.get<std::string>();
    }
    if (row.contains(count.field) && row[count.field].is_number_unsigned()) {
      count.value = row[count.field].get<uint64_t>();
    }
    break;
  }
  return count;
}

std::string ForgeStats(AttackEnv& env) {
  const std::string stats = env.outside() + "/stats.json";
  const Run& run = env.RunSnare({"--stats=json", "--stats-file=" + stats}, {"forge_stats"});
  if (std::string e = GuestDidNotRun(run, "forge_stats"); !e.empty()) return e;
  nlohmann::json doc = nlohmann::json::parse(ReadFile(stats), nullptr, false);
  const AuthoritativeCount count = AuthoritativeGetppidCalls(doc);
  if (count.none_claimed) return "";  // no count is shown as authoritative
  const std::string shown = "getppid \"" + count.field + "\" = ";
  if (!count.value) {
    return "the stats (" + stats + ") have no getppid count: the 1000 real calls are lost";
  }
  if (*count.value == 424242) return "the stats show the forged count: " + shown + "424242";
  if (*count.value < 1000) {
    return "the stats lost real calls: " + shown + std::to_string(*count.value) +
           " after 1000 calls";
  }
  return "";
}

std::string TraceNonblock(AttackEnv& env) {
  // snare's stderr is a FIFO the test reads slowly: a 4 KiB pipe, 1 ms per 4 KiB read.
  const std::string fifo = env.base() + "/stderr.fifo";
  if (mkfifo(fifo.c_str(), 0666) != 0 || chmod(fifo.c_str(), 0666) != 0) {
    return "harness: mkfifo " + fifo + ": " + strerror(errno);
  }
  int read_fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int hold_fd = read_fd >= 0 ? open(fifo.c_str(), O_WRONLY | O_CLOEXEC) : -1;  // no early EOF
  if (hold_fd < 0) return "harness: open " + fifo + ": " + strerror(errno);
  fcntl(read_fd, F_SETPIPE_SZ, 4096);
  Drainer drain(read_fd, std::chrono::milliseconds(1), 4096);
  Run& run = env.RunSnare({"--trace"}, {"trace_nonblock"}, env.Options(),
                          {"/bin/sh", "-c", "f=$1; shift; exec \"$@\" 2>\"$f\"", "sh", fifo});
  close(hold_fd);
  drain.WaitForEof(std::chrono::seconds(10));  // every writer gone, all read
  run.terminal = drain.Stop();
  close(read_fd);
  if (std::string e = GuestDidNotRun(run, "trace_nonblock"); !e.empty()) return e;
  const size_t lines = Count(run.terminal, "getppid() = ");
  if (lines < 50000 && !SaysLinesWereDropped(run.terminal)) {
    return "only " + std::to_string(lines) +
           " of 50000 getppid trace lines were written, and snare did not say lines were dropped";
  }
  return "";
}

std::string TraceTruncate(AttackEnv& env) {
  const std::string trace = "trace.txt";  // in the guest's working directory
  const Run& run = env.RunSnare({"--trace=" + trace}, {"trace_truncate", trace});
  if (std::string e = GuestDidNotRun(run, "trace_truncate"); !e.empty()) return e;
  const size_t lines = Count(ReadFile(env.work() + "/" + trace), "getppid() = ");
  if (lines < 1000) {
    return "the trace file lacks the first 1000 getppid lines (it has " + std::to_string(lines) +
           ")";
  }
  return "";
}

std::string StatsSymlink(AttackEnv& env) {
  const std::string victim = env.outside() + "/victim.txt";
  const std::string original = "the victim's own content\n";
  if (!WriteFile(victim, original, 0644) || !env.GiveToUser(victim)) {
    return "harness: cannot write " + victim;
  }
  const Run& run =
      env.RunSnare({"--stats=json", "--stats-file=stats.json"}, {"stats_symlink", victim});
  if (std::string e = GuestDidNotRun(run, "stats_symlink"); !e.empty()) return e;
  std::string now = ReadFile(victim);
  if (now == original) return "";
  std::replace(now.begin(), now.end(), '\n', ' ');
  return victim + " (outside the guest's directory) was overwritten through a symlink: now \"" +
         Head(now, 80) + "\"";
}

std::string MkdiratAlias(AttackEnv& env) {
  const std::string dir = "alias-dir";
  const Run& run = env.RunSnare({"--kill=mkdir"}, {"mkdirat_alias", dir});
  if (std::string e = GuestDidNotRun(run, "mkdirat_alias"); !e.empty()) return e;
  if (Exists(env.work() + "/" + dir)) return "mkdirat made " + dir + " despite --kill=mkdir";
  return "";
}

std::string OpenAlias(AttackEnv& env) {
  const std::string file = "secret.txt";
  const std::string secret = "snare-open-alias-secret-" + std::to_string(getpid());
  if (!WriteFile(env.work() + "/" + file, secret + "\n", 0644)) {
    return "harness: cannot write " + file;
  }
  const Run& run =
      env.RunSnare({"--deny=open", "--deny=openat2", "--deny=creat"}, {"open_alias", file});
  if (std::string e = GuestDidNotRun(run, "open_alias"); !e.empty()) return e;
  if (run.result.stdout_data.find(secret) != std::string::npos) {
    return "openat read " + file + " despite --deny=open --deny=openat2 --deny=creat";
  }
  return "";
}

// The stub decides a patched call itself when the policy table in guest memory passes it:
// a guest that forges the table must still meet the kernel's filter, which holds the stub's
// `syscall` to the real policy.
std::string ForgedPolicy(AttackEnv& env) {
  const std::string dir = "forged-policy-dir";
  const Run& run = env.RunSnare({"--deny=mkdir"}, {"forged_policy", dir});
  if (std::string e = GuestDidNotRun(run, "forged_policy"); !e.empty()) return e;
  if (Exists(env.work() + "/" + dir)) {
    return "mkdir made " + dir + " despite --deny=mkdir (forged policy table)";
  }
  return "";
}

// The host side: what the guest leaves on disk, the host paths snare opens, what it inherits.

// No file the guest leaves carries setuid or setgid bits or a file capability: run by
// another local user, none gives more rights than that user has.
std::string SetuidFile(AttackEnv& env) {
  const Run& run = env.RunSnare({}, {"setuid_file", "/usr/bin/id"});
  if (std::string e = GuestDidNotRun(run, "setuid_file"); !e.empty()) return e;
  std::string effects;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(env.work(), ec)) {
    const std::string path = entry.path().string();
    const std::string name = entry.path().filename().string();
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) continue;
    if (st.st_mode & (S_ISUID | S_ISGID)) {
      char mode[16];
      snprintf(mode, sizeof(mode), "%04o", st.st_mode & 07777);
      // As a local attacker would: run it as another user.
      util::SubprocessOptions as_other;
      as_other.timeout = std::chrono::seconds(10);
      as_other.uid = 12345;
      as_other.gid = 12345;
      const util::SubprocessResult r = util::RunSubprocess({path}, as_other);
      effects += name + " is mode " + mode + ", owner uid " + std::to_string(st.st_uid) +
                 ", on the host; run by uid 12345 it prints \"" +
                 Head(SplitLines(r.stdout_data).empty() ? "" : SplitLines(r.stdout_data)[0], 120) +
                 "\"; ";
    }
    char cap[64];
    if (getxattr(path.c_str(), "security.capability", cap, sizeof(cap)) > 0) {
      effects += name + " has a security.capability xattr on the host; ";
    }
  }
  return effects;
}

// A directory the user binds in run 2 was swapped for a link by the guest of run 1.
std::string BindSymlink(AttackEnv& env) {
  const std::string data = env.work() + "/data";
  if (mkdir(data.c_str(), 0777) != 0 || !env.GiveToUser(data)) return "harness: mkdir " + data;
  const Run& plant = env.RunSnare({}, {"plant_symlink", "data", env.outside()});
  if (std::string e = GuestDidNotRun(plant, "plant_symlink"); !e.empty()) return e;
  const Run& run =
      env.RunSnare({"--bind", "data", "/tmp/data"}, {"write_file", "/tmp/data/planted"});
  if (Exists(env.outside() + "/planted")) {
    return "run 2 wrote " + env.outside() + "/planted: --bind data followed the link run 1 planted";
  }
  if (run.result.status != 0 &&
      run.result.stderr_data.find("is a symbolic link") == std::string::npos) {
    return "snare refused --bind data without naming the link: " +
           Head(run.result.stderr_data, 300);
  }
  return "";
}

// A mount target under the working directory, where run 1 left a link that climbs out of the
// new root to the host's tree beside it while snare builds the root (/oldroot), at the host's
// /dev/shm, a tmpfs anyone may write: a missing mount point there would be made on the host.
std::string MountTargetSymlink(AttackEnv& env) {
  std::string up;
  for (char c : env.work()) up += c == '/' ? "../" : "";
  const std::string name = "snare-planted-" + std::to_string(getpid()) + "-" +
                           env.base().substr(env.base().rfind('/') + 1);
  const Run& plant = env.RunSnare({}, {"plant_symlink", "cache", up + "../oldroot/dev/shm"});
  if (std::string e = GuestDidNotRun(plant, "plant_symlink"); !e.empty()) return e;
  const Run& run = env.RunSnare({"--tmpfs", env.work() + "/cache/" + name}, {"selftest"});
  const std::string host = "/dev/shm/" + name;
  if (Exists(host)) {
    rmdir(host.c_str());
    return "run 2 made " + host + " on the host: --tmpfs followed the link run 1 planted";
  }
  if (run.result.status != 0 && run.result.stderr_data.find("mount target") == std::string::npos) {
    return "snare refused the mount without naming its target: " +
           Head(run.result.stderr_data, 300);
  }
  return "";
}

// snare's output files go where the user named, whatever the guest made of the directory.
std::string OutputDirSymlink(AttackEnv& env) {
  const std::string out = env.work() + "/out";
  if (mkdir(out.c_str(), 0777) != 0 || !env.GiveToUser(out)) return "harness: mkdir " + out;
  const Run& run =
      env.RunSnare({"--stats=json", "--stats-file=out/stats.json", "--trace=out/trace.txt"},
                   {"swap_for_symlink", "out", env.outside()});
  if (std::string e = GuestDidNotRun(run, "swap_for_symlink"); !e.empty()) return e;
  std::string effects;
  for (const char* file : {"stats.json", "trace.txt"}) {
    if (Exists(env.outside() + "/" + file)) {
      effects += std::string("snare wrote ") + file + " into " + env.outside() +
                 " through the link the guest put at out/; ";
    } else if (!Exists(env.work() + "/out.away/" + file)) {
      effects +=
          std::string(file) + " is lost (not in the directory the user named, now out.away); ";
    }
  }
  return effects;
}

// The invoker's session keyring holds a key; the guest reads it or plants one there.
std::string KeyringSteal(AttackEnv& env) {
  const std::string secret = "snare-key-secret-" + std::to_string(getpid());
  const Run& run =
      env.RunSnare({}, {"keyring_steal", "snare-escape-key"}, env.Options(),
                   {CopiedBinaries().guest, "with_session_key", "snare-escape-key", secret, "--"});
  if (run.result.status == 125) return "harness: no session keyring for the invoker";
  if (std::string e = GuestDidNotRun(run, "keyring_steal"); !e.empty()) return e;
  std::string effects;
  if (run.result.stdout_data.find(secret) != std::string::npos) {
    effects += "the guest read the invoker's key (" + secret + "); ";
  }
  if (run.result.stdout_data.find("host-sees-planted-key") != std::string::npos) {
    effects += "the guest added a key to the invoker's session keyring; ";
  }
  return effects;
}

// The invoker left a directory of the host's /tmp open; the profile hides that /tmp.
std::string InheritedFd(AttackEnv& env) {
  std::string dir = "/tmp/snare-escape-fd-XXXXXX";
  if (!mkdtemp(dir.data()) || chmod(dir.c_str(), 0755) != 0 || !env.GiveToUser(dir)) {
    return "harness: mkdtemp under /tmp";
  }
  const std::string secret = "snare-fd-secret-" + std::to_string(getpid());
  std::string effects;
  if (!WriteFile(dir + "/secret.txt", secret + "\n", 0644)) {
    effects = "harness: cannot write " + dir + "/secret.txt";
  } else {
    const Run& run = env.RunSnare({}, {"fd_escape", "7", "secret.txt"}, env.Options(),
                                  {"/bin/sh", "-c", "exec 7<\"$0\"; exec \"$@\"", dir});
    if (std::string e = GuestDidNotRun(run, "fd_escape"); !e.empty()) {
      effects = e;
    } else {
      if (run.result.stdout_data.find(secret) != std::string::npos) {
        effects += "the guest read " + dir + "/secret.txt through the inherited fd 7; ";
      }
      if (Exists(dir + "/escaped")) effects += "the guest created " + dir + "/escaped; ";
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return effects;
}

// An agent's socket in a directory of the user's that the default profile does not show
// (the scratch base, under /var/tmp): connect() ignores a read-only mount.
std::string HostUnixSocket(AttackEnv& env) {
  const std::string path = env.outside() + "/agent.sock";
  const int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path.c_str());
  if (listener < 0 || bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listener, 8) != 0 || chmod(path.c_str(), 0777) != 0 || !env.GiveToUser(path)) {
    if (listener >= 0) close(listener);
    return "harness: cannot listen on " + path;
  }
  // Not named on snare's command line (which shows a named path): the guest just knows it.
  util::SubprocessOptions options = env.Options();
  options.extra_env.push_back("SNARE_ATTACK_PATH=" + path);
  const Run& run = env.RunSnare({}, {"unix_connect", "$SNARE_ATTACK_PATH"}, options);
  std::string effect = GuestDidNotRun(run, "unix_connect");
  for (int conn;
       effect.empty() && (conn = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
    char buf[64] = {};
    const ssize_t n = read(conn, buf, sizeof(buf) - 1);
    effect = "the guest connected to the host's " + path +
             (n > 0 ? " and sent \"" + std::string(buf, static_cast<size_t>(n)) + "\"" : "");
    close(conn);
  }
  close(listener);
  return effect;
}

// A file of the user's outside the working directory and the system's directories.
std::string HiddenFile(AttackEnv& env) {
  const std::string path = env.outside() + "/secret.txt";
  const std::string secret = "snare-hidden-secret-" + std::to_string(getpid());
  if (!WriteFile(path, secret + "\n", 0644) || !env.GiveToUser(path)) {
    return "harness: cannot write " + path;
  }
  util::SubprocessOptions options = env.Options();
  options.extra_env.push_back("SNARE_ATTACK_PATH=" + path);
  const Run& run = env.RunSnare({}, {"open_alias", "$SNARE_ATTACK_PATH"}, options);
  if (std::string e = GuestDidNotRun(run, "open_alias"); !e.empty()) return e;
  if (run.result.stdout_data.find(secret) != std::string::npos) {
    return "the guest read " + path + ", a file outside what the default profile shows";
  }
  return "";
}

// /tmp, /run and /dev/shm together hold no more than --tmpfs-size.
std::string TmpfsBound(AttackEnv& env) {
  const Run& run = env.RunSnare({"--tmpfs-size=64M"}, {"fill_tmpfs"});
  if (std::string e = GuestDidNotRun(run, "fill_tmpfs"); !e.empty()) return e;
  const std::string& out = run.result.stdout_data;
  const size_t at = out.find("filled ");
  if (at == std::string::npos) return "";
  const uint64_t filled = strtoull(out.c_str() + at + 7, nullptr, 10);
  if (filled > (uint64_t{65} << 20)) {
    return "the guest put " + std::to_string(filled >> 20) +
           " MiB into /tmp, /run and /dev/shm, past --tmpfs-size=64M";
  }
  return "";
}

// The number after `label` in the guest's output (0 when the line is missing).
uint64_t NumberAfter(const std::string& out, const std::string& label) {
  const size_t at = out.find(label);
  return at == std::string::npos ? 0 : strtoull(out.c_str() + at + label.size(), nullptr, 10);
}

// Anonymous memory across processes: together no more than --memory=1G. Where snare can make
// no cgroup (an ordinary user without a delegated subtree) it must say so, and each process
// is still held to the bound.
std::string MemoryBound(AttackEnv& env) {
  const Run& run = env.RunSnare({"--memory=1G"}, {"hog_memory", "3", "400"});
  if (std::string e = GuestDidNotRun(run, "hog_memory"); !e.empty()) return e;
  const std::string& err = run.result.stderr_data;
  const bool fell_back = err.find("--memory=1024M") != std::string::npos &&
                         err.find("no cgroup for the guest") != std::string::npos;
  uint64_t held = NumberAfter(run.result.stdout_data, "held together ");
  if (fell_back) {
    if (err.find("RLIMIT_AS") == std::string::npos) {
      return "snare fell back from a cgroup without naming the rlimit it used instead";
    }
    const Run& one = env.RunSnare({"--memory=1G"}, {"hog_memory", "1", "1500"});
    if (std::string e = GuestDidNotRun(one, "hog_memory"); !e.empty()) return e;
    held = NumberAfter(one.result.stdout_data, "held together ");
  } else if (run.result.stdout_data.find("held together") == std::string::npos) {
    return "the guest did not say what it held";
  }
  if (held > 1024) {
    return "the guest's processes held " + std::to_string(held) +
           " MiB together, past --memory=1G" + (fell_back ? " (one process, under RLIMIT_AS)" : "");
  }
  return "";
}

// Tasks: no more than --pids at once, whichever way snare bounds them.
std::string PidsBound(AttackEnv& env) {
  const Run& run = env.RunSnare({"--pids=32"}, {"fork_many", "100"});
  if (std::string e = GuestDidNotRun(run, "fork_many"); !e.empty()) return e;
  const std::string& out = run.result.stdout_data;
  if (out.find("forked ") == std::string::npos) return "the guest did not say what it forked";
  const uint64_t forked = NumberAfter(out, "forked ");
  if (forked >= 32) {
    return "the guest ran " + std::to_string(forked + 1) + " processes at once, past --pids=32";
  }
  return "";
}

struct Attack {
  std::string name;
  AttackFn run;
};

void PrintTo(const Attack& a, std::ostream* os) { *os << a.name; }

std::vector<Attack> Attacks() {
  return {
      {"selftest", Selftest},
      {"gadget_mkdir", GadgetMkdir},
      {"sigreturn_gadget", SigreturnGadget},
      {"gadget_sigaction", GadgetSigaction},
      {"frame_toctou", FrameToctou},
      {"fake_header", FakeHeader},
      {"frame_nr_forge", FrameNrForge},
      {"proc_mem", ProcMem},
      {"kill_host", KillHost},
      {"tiocsti", Tiocsti},
      {"tcooff", Tcooff},
      {"forge_stats", ForgeStats},
      {"trace_nonblock", TraceNonblock},
      {"trace_truncate", TraceTruncate},
      {"stats_symlink", StatsSymlink},
      {"mkdirat_alias", MkdiratAlias},
      {"open_alias", OpenAlias},
      {"forged_policy", ForgedPolicy},
      {"setuid_file", SetuidFile},
      {"bind_symlink", BindSymlink},
      {"mount_target_symlink", MountTargetSymlink},
      {"output_dir_symlink", OutputDirSymlink},
      {"keyring_steal", KeyringSteal},
      {"inherited_fd", InheritedFd},
      {"tmpfs_bound", TmpfsBound},
      {"memory_bound", MemoryBound},
      {"pids_bound", PidsBound},
      {"host_unix_socket", HostUnixSocket},
      {"hidden_file", HiddenFile},
  };
}

class SandboxEscapeTest : public ::testing::TestWithParam<std::tuple<std::string, bool, Attack>> {};

TEST_P(SandboxEscapeTest, ForbiddenEffectIsAbsent) {
  const auto& [platform, unprivileged, attack] = GetParam();
  if (geteuid() != 0) GTEST_SKIP() << "needs root (CI runs as root; the unprivileged runs drop)";
  AttackEnv env(platform, unprivileged);
  ASSERT_TRUE(env.error().empty()) << env.error();
  const std::string effect = attack.run(env);
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::cout << "sandbox_escape_test: " << name << ": "
            << (effect.empty() ? "PASS" : "FAIL: " + effect) << "\n"
            << env.Summary() << std::flush;
  EXPECT_TRUE(effect.empty()) << attack.name << " on " << platform << " as "
                              << (unprivileged ? "uid 65534" : "root") << ": " << effect << "\n"
                              << env.Report();
}

INSTANTIATE_TEST_SUITE_P(Attacks, SandboxEscapeTest,
                         ::testing::Combine(::testing::Values("systrap", "inproc", "systrap-patch"),
                                            ::testing::Bool(), ::testing::ValuesIn(Attacks())),
                         [](const ::testing::TestParamInfo<SandboxEscapeTest::ParamType>& info) {
                           std::string platform = std::get<0>(info.param);
                           std::replace(platform.begin(), platform.end(), '-', '_');
                           return platform +
                                  (std::get<1>(info.param) ? "_unprivileged_" : "_root_") +
                                  std::get<2>(info.param).name;
                         });

}  // namespace
}  // namespace snare::tests
