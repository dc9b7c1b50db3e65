#include "sentry/run_command.h"

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

#include "platform/platform_registry.h"
#include "platform/systrap/seccomp_program.h"
#include "platform/systrap/stub_image.h"
#include "sentry/atomic_file.h"
#include "sentry/dispatcher.h"
#include "sentry/guest_launcher.h"
#include "sentry/monotonic_clock.h"
#include "sentry/program_resolver.h"
#include "sentry/shared_region_file.h"
#include "sentry/syscall_handler.h"
#include "sentry/syscall_stats.h"
#include "sentry/trace_sink.h"

namespace snare {
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

int RunCommand(const RunOptions& options) {
  auto platform = platform::PlatformByName(options.platform);
  if (!platform) return Fail("unknown platform '" + options.platform + "'", 2);
  auto program = ResolveProgram(options.argv[0], getenv("PATH"));
  if (!program) {
    fprintf(stderr, "%s\n", program.error().message.c_str());
    return program.error().exit_status;
  }

  auto executable = ResolveInterpreters(*program, options.argv);
  if (!executable) {
    fprintf(stderr, "%s\n", executable.error().message.c_str());
    return executable.error().exit_status;
  }

  PolicyRule rules[kSyscallLimit];
  DefaultRules(rules);
  for (const auto& o : options.overrides) {
    rules[o.nr].disposition = static_cast<uint8_t>(o.disposition);
    rules[o.nr].deny_errno = static_cast<uint16_t>(o.err);
  }

  auto layout = systrap::ParseStubLayout(systrap::StubImageBytes());
  if (!layout) return Fail(layout.error());
  auto filter = systrap::BuildSeccompProgram(*layout, rules);
  if (!filter) return Fail(filter.error());
  auto stub_fd = systrap::CreateStubMemfd();
  if (!stub_fd) return Fail(stub_fd.error());
  auto region = SharedRegionFile::Create(platform->StubMode());
  if (!region) return Fail(region.error());

  systrap::Header* h = region->header();
  h->spin_iterations = options.spin_iterations;
  h->trace = options.trace;
  h->sentry_pid = 0;
  h->stub_text_start = layout->text_start;
  h->stub_text_end = layout->text_end;
  h->filter_len = static_cast<uint32_t>(filter->size());
  std::memcpy(h->filter, filter->data(), filter->size() * sizeof(sock_filter));
  static_assert(sizeof(PolicyRule) == sizeof(systrap::PolicyEntry));
  std::memcpy(h->policy, rules, sizeof(rules));

  int trace_fd = -1;
  if (options.trace) {
    trace_fd = options.trace_file.empty() ? fcntl(2, F_DUPFD_CLOEXEC, 3)
                                          : open(options.trace_file.c_str(),
                                                 O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (trace_fd < 0) {
      return Fail("cannot open the trace file '" + options.trace_file + "': " + strerror(errno));
    }
  }
  if (options.stats != RunOptions::StatsFormat::kNone && !options.stats_file.empty()) {
    auto writable = CheckWritableDirectory(options.stats_file);
    if (!writable) return Fail(writable.error());
  }

  PolicyContext policy = {rules, systrap::kProtectedRanges, systrap::kProtectedRangeCount,
                          systrap::kFirstReservedFd, systrap::kLastReservedFd};
  TraceSink sink(trace_fd);
  SyscallHandler handler(policy, options.trace ? &sink : nullptr);
  Dispatcher dispatcher(region->base(), &handler, platform->SentryAnswersTraps());

  LaunchSpec spec;
  spec.path = executable->path;
  spec.argv = executable->argv;
  spec.stub_fd = *stub_fd;
  spec.shared_fd = region->fd();
  spec.trace_fd = platform->SentryAnswersTraps() ? -1 : trace_fd;

  const uint64_t ns0 = MonotonicNs(), tsc0 = Tsc();
  auto guest = LaunchGuest(spec);
  if (!guest) return Fail(guest.error());
  close(*stub_fd);
  if (!guest->own_pid_namespace) {
    // Stubs check that the sentry lives when a reply is late (no pid namespace kills them).
    __atomic_store_n(&h->sentry_pid, getpid(), __ATOMIC_RELEASE);
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
  const uint64_t ns1 = MonotonicNs(), tsc1 = Tsc();

  if (options.stats != RunOptions::StatsFormat::kNone) {
    double ns_per_tick = tsc1 > tsc0 ? static_cast<double>(ns1 - ns0) / (tsc1 - tsc0) : 0;
    SyscallStats stats = CollectStats(region->base(), ns_per_tick, options.platform);
    stats.sentry_peak_rss_kb = PeakRssKb();
    stats.peak_tasks = dispatcher.peak_tasks();
    std::string text = options.stats == RunOptions::StatsFormat::kJson ? RenderStatsJson(stats)
                                                                       : RenderStatsTable(stats);
    if (options.stats_file.empty()) {
      fputs(text.c_str(), stderr);
    } else if (auto written = WriteFileAtomically(options.stats_file, text); !written) {
      fprintf(stderr, "snare: %s\n", written.error().c_str());
      if (status == 0) status = 1;
    }
  }
  if (trace_fd >= 0) close(trace_fd);
  return status;
}

}  // namespace snare
