#include "sentry/run_guest.h"

#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "sentry/dispatcher.h"
#include "sentry/guest_launcher.h"
#include "sentry/program_resolver.h"
#include "sentry/syscall_handler.h"
#include "sentry/syscall_stats.h"
#include "sentry/trace_sink.h"
#include "util/atomic_file.h"
#include "util/monotonic_clock.h"

namespace snare::sentry {
namespace {

volatile pid_t g_init_pid = -1;

void ForwardToGuest(int sig) {
  if (g_init_pid > 0) kill(g_init_pid, sig);
}

uint64_t Tsc() { return __builtin_ia32_rdtsc(); }

int Fail(const std::string& message, int status = 1) {
  fprintf(stderr, "snare: %s\n", message.c_str());
  return status;
}

}  // namespace

int RunGuest(const platform::Platform& platform, const RunConfig& config) {
  auto program = ResolveProgram(config.argv[0], getenv("PATH"));
  if (!program) {
    fprintf(stderr, "%s\n", program.error().message.c_str());
    return program.error().exit_status;
  }
  auto executable = ResolveInterpreters(*program, config.argv);
  if (!executable) {
    fprintf(stderr, "%s\n", executable.error().message.c_str());
    return executable.error().exit_status;
  }

  int trace_fd = -1;
  if (config.trace) {
    trace_fd = config.trace_file.empty() ? fcntl(2, F_DUPFD_CLOEXEC, 3)
                                         : open(config.trace_file.c_str(),
                                                O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (trace_fd < 0) {
      return Fail("cannot open the trace file '" + config.trace_file + "': " + strerror(errno));
    }
  }
  if (config.stats != RunConfig::StatsFormat::kNone && !config.stats_file.empty()) {
    auto writable = util::CheckWritableDirectory(config.stats_file);
    if (!writable) return Fail(writable.error());
  }

  platform::MachineConfig machine_config;
  machine_config.policy = config.policy;
  machine_config.spin_iterations = config.spin_iterations;
  machine_config.trace = config.trace;
  machine_config.trace_fd = trace_fd;
  auto machine = platform.NewMachine(machine_config);
  if (!machine) return Fail(machine.error());

  TraceSink sink(trace_fd);
  SyscallHandler handler((*machine)->Guarded(&config.policy), config.trace ? &sink : nullptr);
  Dispatcher dispatcher(machine->get(), &handler);

  LaunchSpec spec;
  spec.path = executable->path;
  spec.argv = executable->argv;
  spec.entry = (*machine)->Entry();

  const uint64_t ns0 = util::MonotonicNs(), tsc0 = Tsc();
  auto guest = LaunchGuest(spec);
  if (!guest) return Fail(guest.error());
  if (!guest->own_pid_namespace) {
    // Stubs check that the sentry lives when a reply is late (no pid namespace kills them).
    (*machine)->WatchSentry(getpid());
    fprintf(stderr,
            "snare: warning: no pid namespace (needs root or CAP_SYS_ADMIN); guest processes "
            "may outlive snare if it is killed\n");
  }
  g_init_pid = guest->init_pid;
  struct sigaction forward = {};
  forward.sa_handler = ForwardToGuest;
  for (int sig : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(sig, &forward, nullptr);
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);

  std::atomic<bool> stop{false};
  std::thread serve([&] { dispatcher.Run(stop); });
  int status = WaitGuest(*guest);
  stop.store(true, std::memory_order_release);
  dispatcher.Wake();
  serve.join();
  const uint64_t ns1 = util::MonotonicNs(), tsc1 = Tsc();

  if (config.stats != RunConfig::StatsFormat::kNone) {
    double ns_per_tick = tsc1 > tsc0 ? static_cast<double>(ns1 - ns0) / (tsc1 - tsc0) : 0;
    SyscallStats stats =
        CollectStats((*machine)->Counters(), ns_per_tick, std::string(platform.Name()));
    stats.sentry_peak_rss_kb = PeakRssKb();
    stats.peak_tasks = dispatcher.peak_tasks();
    std::string text = config.stats == RunConfig::StatsFormat::kJson ? RenderStatsJson(stats)
                                                                     : RenderStatsTable(stats);
    if (config.stats_file.empty()) {
      fputs(text.c_str(), stderr);
    } else if (auto written = util::WriteFileAtomically(config.stats_file, text); !written) {
      fprintf(stderr, "snare: %s\n", written.error().c_str());
      if (status == 0) status = 1;
    }
  }
  if (trace_fd >= 0) close(trace_fd);
  return status;
}

}  // namespace snare::sentry
