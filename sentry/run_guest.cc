#include "sentry/run_guest.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "sandbox/hidden_files.h"
#include "sandbox/mount_setup.h"
#include "sentry/dispatcher.h"
#include "sentry/guest_launcher.h"
#include "sentry/limit_report.h"
#include "sentry/notify_server.h"
#include "sentry/program_resolver.h"
#include "sentry/stderr_report.h"
#include "sentry/syscall_handler.h"
#include "sentry/syscall_stats.h"
#include "sentry/time_limit.h"
#include "sentry/trace_output.h"
#include "sentry/trace_relay.h"
#include "sentry/trace_sink.h"
#include "util/cpu_time.h"
#include "util/monotonic_clock.h"
#include "util/pending_file.h"
#include "util/scheduler_slice.h"

namespace snare::sentry {
namespace {

volatile pid_t g_init_pid = -1;

void ForwardToGuest(int sig) {
  if (g_init_pid > 0) kill(g_init_pid, sig);
}

// RLIMIT_CPU's soft limit: the sentry cannot go on answering, so the guest goes first, and
// the user learns why (the default action would only say "CPU time limit exceeded").
void StopOnCpuLimit(int sig) {
  static const char kText[] =
      "snare: the sentry reached its CPU time limit (RLIMIT_CPU); the guest was killed\n";
  if (g_init_pid > 0) kill(g_init_pid, SIGKILL);
  (void)!write(2, kText, sizeof(kText) - 1);
  signal(sig, SIG_DFL);
  raise(sig);
}

uint64_t Tsc() { return __builtin_ia32_rdtsc(); }

int Fail(const std::string& message, int status = 1) {
  fprintf(stderr, "snare: %s\n", message.c_str());
  return status;
}

// At exit: relays what the guest still had in the pipe (inproc), lets the writer drain for
// about 2 s, then gives up on it: a reader that does not read (a stopped terminal, a pipe
// nobody empties) must not keep snare from exiting. Reports the lines lost, and publishes
// a trace file.
// *failed: the trace file asked for was not written.
// Ends snare's process with the guest's status, its outputs flushed and nothing freed first:
// running the destructors and exit handlers cost 0.4 ms of a 6 ms `snare run /bin/true` here
// (the region's and the fibers' unmapping, the heap). Sanitized builds return instead, so
// that LeakSanitizer still checks what the destructors free.
void EndProcess(int status) {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  fflush(nullptr);
  _exit(status);
#else
  (void)status;
#endif
}

TraceSink::Result FinishTrace(TraceRelay* relay, TraceSink* sink, TraceOutput* output,
                              bool* failed) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now(), deadline = start + std::chrono::seconds(2);
  if (relay) relay->Stop(std::min(deadline, start + std::chrono::milliseconds(500)));
  if (!sink->Flush(deadline) && output->is_terminal()) {
    RestartTerminalOutput(output->fd());  // a guest may have stopped it (TCOOFF)
    sink->Flush(Clock::now() + std::chrono::milliseconds(500));
  }
  const TraceSink::Result result = sink->Close();
  if (result.dropped) {
    const std::string why = result.error
                                ? std::string("writing the trace failed: ") + strerror(result.error)
                                : "the trace reader was too slow";
    ReportOnStderr("snare: " + std::to_string(result.dropped) + " trace lines dropped (" + why +
                   ")\n");
  }
  if (auto finished = output->Finish(/*in_use=*/result.abandoned, result.error); !finished) {
    ReportOnStderr("snare: " + finished.error() + "\n");
    *failed = true;
  }
  return result;
}

}  // namespace

int RunGuest(const platform::Platform& platform, const RunConfig& config) {
  auto executable = ResolveExecutable(config.argv, getenv("PATH"));
  const bool other_root = config.sandbox.confine && config.sandbox.root != "/";
  if (other_root || (config.sandbox.confine && !executable)) {
    // Under --root, or for a program that only the guest's mounts hold: look it up as the
    // guest will see it.
    char start_dir[4096];
    if (!getcwd(start_dir, sizeof(start_dir))) {
      return Fail(std::string("getcwd: ") + strerror(errno));
    }
    auto inside =
        ResolveExecutableInside([&] { return sandbox::EnterGuestTree(config.sandbox, start_dir); },
                                config.argv, getenv("PATH"));
    if (inside || other_root) executable = std::move(inside);
  }
  if (!executable) {
    fprintf(stderr, "%s\n", executable.error().message.c_str());
    return executable.error().exit_status;
  }
  // The program the user named runs even from a directory the profile hides (/tmp, /run).
  sandbox::SandboxSpec sandbox_spec = config.sandbox;
  sandbox::ExposeHiddenFiles(executable->files, &sandbox_spec);
  sandbox::ExposeNamedPaths(config.argv, &sandbox_spec);
  // What the guest's processes hold together is a cgroup's to bound; where snare can make
  // none, the bounds asked for become rlimits, and snare says so.
  sandbox::GuestCgroup cgroup;
  if (sandbox_spec.confine) {
    cgroup =
        sandbox::GuestCgroup::Create({sandbox_spec.memory_limit, sandbox_spec.pids_limit,
                                      /*v1=*/sandbox_spec.memory_asked || sandbox_spec.pids_asked});
    if (const std::string note = sandbox::FallBackToRlimits(cgroup, &sandbox_spec); !note.empty()) {
      ReportOnStderr(note);
    }
  }

  // The trace goes to an output of snare's own (trace_output.h); under inproc the guest
  // writes its lines into a pipe instead, relayed from the other end (trace_relay.h).
  std::optional<TraceOutput> trace_output;
  int relay_fds[2] = {-1, -1};
  if (config.trace) {
    auto output = TraceOutput::Open(config.trace_file);
    if (!output) return Fail(output.error());
    trace_output.emplace(std::move(*output));
    if (pipe2(relay_fds, O_CLOEXEC) != 0) {
      return Fail(std::string("cannot make the trace pipe: ") + strerror(errno));
    }
  }
  // The stats file's directory is opened now, before the guest can swap it for a link, and
  // the file is written there at exit whatever the guest did to the path meanwhile.
  std::optional<util::PendingFile> stats_file;
  if (config.stats != RunConfig::StatsFormat::kNone && !config.stats_file.empty()) {
    util::PendingFileOptions options;
    options.hidden = true;
    options.no_symlinks = true;
    auto file = util::PendingFile::Create(config.stats_file, options);
    if (!file) return Fail(file.error());
    stats_file.emplace(std::move(*file));
  }

  platform::MachineConfig machine_config;
  machine_config.policy = &config.policy;
  machine_config.spin_iterations = config.spin_iterations;
  machine_config.timing = config.stats != RunConfig::StatsFormat::kNone;
  machine_config.patch = config.patch;
  machine_config.patch_after = config.patch_after;
  machine_config.patch_after_given = config.patch_after_given;
  machine_config.all_to_sentry = config.all_to_sentry;
  machine_config.trace = config.trace;
  machine_config.trace_fd = relay_fds[1];
  auto machine = platform.NewMachine(machine_config);
  bool notifies = false;
  for (const policy::SyscallEntry& e : config.policy.entries) {
    notifies |= e.fallback.action == policy::Action::kNotify;
  }
  if (!machine) return Fail(machine.error());

  if (trace_output && (*machine)->AnswersTraps()) {
    close(relay_fds[0]);  // the sentry writes every line itself
    close(relay_fds[1]);
    relay_fds[0] = relay_fds[1] = -1;
  }

  const bool confined = config.sandbox.confine;
  char cwd[4096];
  if (!getcwd(cwd, sizeof(cwd))) return Fail(std::string("getcwd: ") + strerror(errno));

  LaunchSpec spec;
  spec.path = executable->path;
  spec.argv = executable->argv;
  spec.entry = (*machine)->Entry();
  spec.sandbox = &sandbox_spec;
  spec.cgroup = &cgroup;
  spec.cwd = cwd;

  const uint64_t ns0 = util::MonotonicNs(), tsc0 = Tsc();
  const double sentry_cpu0 = util::ProcessCpuSeconds(), guest_cpu0 = util::ChildrenCpuSeconds();
  auto guest = LaunchGuest(spec);
  // The guest has its copy of the pipe's write end; the relay sees end of file once the
  // last guest process is gone.
  if (relay_fds[1] >= 0) close(relay_fds[1]);
  if (!guest) {
    if (relay_fds[0] >= 0) close(relay_fds[0]);
    return Fail(guest.error());
  }
  // The trace's threads start only now: LaunchGuest clones while snare has one thread (see
  // guest_launcher.h). Until the relay runs, the guest's lines wait in the pipe.
  std::unique_ptr<TraceSink> sink;
  std::unique_ptr<TraceRelay> relay;
  if (trace_output) {
    sink = std::make_unique<TraceSink>(trace_output->fd());
    if (relay_fds[0] >= 0) relay = std::make_unique<TraceRelay>(relay_fds[0], sink.get());
  }
  SyscallHandler handler((*machine)->Guarded(&config.policy), sink.get(),
                         config.sandbox.confine ? config.sandbox.hostname : "");
  Dispatcher dispatcher(machine->get(), &handler);
  (*machine)->SetPassUnseen(handler.PassesUnseen());
  // Not dumpable from here on (the launch needed /proc/PID of its children writable): no
  // guest, even one that reached the host's /proc, may read or write the sentry's memory.
  if (confined || config.sandbox.engine_confined) prctl(PR_SET_DUMPABLE, 0);
  if (guest->guest_proc_fd >= 0) (*machine)->SetGuestProc(guest->guest_proc_fd);
  if (!guest->own_pid_namespace) {
    // Stubs check that the sentry lives when a reply is late (no pid namespace kills them).
    (*machine)->WatchSentry(getpid());
  }
  // In a container the engine's pid namespace ends every guest process with it.
  if (!guest->own_pid_namespace && !config.sandbox.engine_confined) {
    fprintf(stderr,
            "snare: warning: no pid namespace (needs root or CAP_SYS_ADMIN); guest processes "
            "may outlive snare if it is killed\n");
  }
  g_init_pid = guest->init_pid;
  struct sigaction forward = {};
  forward.sa_handler = ForwardToGuest;
  for (int sig : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(sig, &forward, nullptr);
  signal(SIGXCPU, StopOnCpuLimit);
  // A confined guest has a session of its own, out of reach of the terminal's SIGINT and
  // SIGQUIT: they come through the sentry, and so does whatever a container engine sends
  // its pid 1. Unconfined, they reach it through the group.
  for (int sig : {SIGINT, SIGQUIT}) {
    if (confined || config.sandbox.engine_confined) {
      sigaction(sig, &forward, nullptr);
    } else {
      signal(sig, SIG_IGN);
    }
  }

  // The notification path, when the policy has one: the first guest process hands over its
  // filter's listener before the guest's own code runs.
  std::unique_ptr<NotifyServer> notify;
  if (notifies) {
    const int listener = (*machine)->TakeNotifyListener(/*timeout_ms=*/10000);
    if (listener < 0) {
      kill(guest->init_pid, SIGKILL);
      WaitGuest(*guest);
      return Fail("the guest did not hand over its seccomp listener (--notify)");
    }
    notify =
        std::make_unique<NotifyServer>(listener, (*machine)->Guarded(&config.policy), sink.get());
  }

  std::atomic<bool> stop{false};
  std::thread serve([&] {
    // A guest thread waits while the sentry decides its call, which takes microseconds; a
    // sentry woken behind running guest threads would wait out their slices first (git
    // status's ten threads on two CPUs took 2.7 times as long). Best effort: a kernel before
    // 6.12 ignores it, a container may refuse it.
    (void)util::RequestSchedulerSlice(util::kShortestSchedulerSliceNs);
    dispatcher.Run(stop);
  });
  TimeLimit time_limit(config.sandbox.time_limit_s, guest->init_pid);
  int status = WaitGuest(*guest);
  const uint64_t reaped_ns = util::MonotonicNs();
  time_limit.Stop();
  if (time_limit.expired()) {
    // timeout(1)'s status for a command that ran out of time.
    char text[128];
    snprintf(text, sizeof(text), "snare: the guest ran past its time limit (%g s) and was killed\n",
             config.sandbox.time_limit_s);
    ReportOnStderr(text);
    status = 124;
  }
  stop.store(true, std::memory_order_release);
  dispatcher.Wake();
  serve.join();
  if (notify) notify->Stop();
  const uint64_t ns1 = util::MonotonicNs(), tsc1 = Tsc();
  const double sentry_cpu1 = util::ProcessCpuSeconds();

  // The guest's own failures do not say that a limit was the sandbox's, nor how to lift it.
  CgroupBounds bounds;
  if (cgroup.bounds_memory()) bounds.memory_bytes = sandbox_spec.memory_limit;
  if (cgroup.bounds_pids()) bounds.pids = sandbox_spec.pids_limit;
  bounds.events = cgroup.Events();
  cgroup.Remove();  // EndProcess below runs no destructors
  if (const std::string limits = LimitReport((*machine)->Counters(), sandbox_spec.rlimits, bounds);
      !limits.empty()) {
    ReportOnStderr(limits);
  }
  bool trace_failed = false;
  const TraceSink::Result trace =
      sink ? FinishTrace(relay.get(), sink.get(), &*trace_output, &trace_failed)
           : TraceSink::Result{};
  // An output the user asked for and did not get fails a run that otherwise succeeded.
  if (trace_failed && status == 0) status = 1;
  if (config.stats != RunConfig::StatsFormat::kNone) {
    double ns_per_tick = tsc1 > tsc0 ? static_cast<double>(ns1 - ns0) / (tsc1 - tsc0) : 0;
    // The sentry's own counts only where it answered the traps (systrap).
    const std::vector<SentryCounters> none;
    std::vector<SentryCounters> answered = handler.counters();
    const std::vector<uint64_t> unseen = (*machine)->PassedUnseen();
    for (size_t nr = 0; nr < unseen.size() && nr < answered.size(); ++nr) {
      answered[nr].calls += unseen[nr];
    }
    SyscallStats stats =
        CollectStats((*machine)->Counters(), (*machine)->AnswersTraps() ? answered : none,
                     ns_per_tick, std::string(platform.Name()), notify ? notify->counters() : none);
    stats.sentry_peak_rss_kb = PeakRssKb();
    stats.sentry_cpu_s = sentry_cpu1 - sentry_cpu0;
    stats.guest_cpu_s = util::ChildrenCpuSeconds() - guest_cpu0;
    stats.idling = (*machine)->Idling();
    if (config.started_ns && stats.idling.first_request_ns > config.started_ns) {
      stats.first_call_ms = (stats.idling.first_request_ns - config.started_ns) / 1e6;
      stats.reaped_ms = (reaped_ns - config.started_ns) / 1e6;
    }
    stats.peak_tasks = dispatcher.peak_tasks();
    if (sink) stats.trace_lines_dropped = trace.dropped;
    std::string text = config.stats == RunConfig::StatsFormat::kJson ? RenderStatsJson(stats)
                                                                     : RenderStatsTable(stats);
    if (config.stats_file.empty()) {
      ReportOnStderr(text);
    } else {
      auto written = stats_file->WriteAll(text.data(), text.size());
      if (written) written = stats_file->Publish(/*sync=*/true);
      if (!written) {
        ReportOnStderr("snare: " + written.error() + "\n");
        if (status == 0) status = 1;
      }
    }
  }
  if (config.end_process) EndProcess(status);
  return status;
}

}  // namespace snare::sentry
