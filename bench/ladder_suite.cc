#include <set>

#include "bench/suites.h"
#include "util/allowed_cpus.h"

namespace snare::bench {

void AddLadderSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  struct Rung {
    std::string name, platform, mode;
    std::vector<std::string> flags;
    int cpu;
  };
  const std::vector<Rung> rungs = {
      {"native", "native", "native", {}, -1},
      {"filter-allow", "native", "allow", {}, -1},
      {"filter-errno", "native", "errno", {}, -1},
      {"signal-floor", "native", "sigsys", {}, -1},
      // No syscall: one cache line over to another CPU and back, the least a sentry's answer
      // from another CPU can add (getppid's table only).
      {"handoff-floor", "native", "handoff", {}, -1},
      {"inproc", "inproc", "native", {}, -1},
      {"systrap", "systrap", "native", {}, -1},
      {"systrap-futex", "systrap", "native", {"--spin=0"}, -1},
      {"systrap-1cpu", "systrap", "native", {"--spin=0"}, 0},
      // The default profile's sandbox around the same trap path.
      {"systrap-confined", "systrap", "native", {"--profile=sandbox"}, -1},
      // The call takes the seccomp user-notification path instead of SIGSYS.
      {"systrap-notify", "systrap", "native", {"--notify={call}"}, -1},
      // Syscall patching: from its 16th trap, the call's glibc site enters the stub directly,
      // which runs the calls the policy passes itself...
      {"systrap-patch", "systrap", "native", {"--patch"}, -1},
      // ...or hands each to the sentry, as gVisor's patched calls go to its Sentry.
      {"systrap-patch-sentry", "systrap", "native", {"--patch", "--all-to-sentry"}, -1},
  };
  // The syscall each subject makes per iteration (the notified one).
  auto call_of = [](const std::string& subject) -> std::string {
    return subject == "read4k" ? "pread64" : subject == "openat-close" ? "openat" : subject;
  };
  const BenchOptions& o = context.options();
  const auto allowed = util::AllowedCpus();
  const bool two_cpus_allowed = allowed && allowed->size() >= 2;
  // getppid-gap shows what the sentry's waiting costs: the rungs that wait differently.
  const std::set<std::string> gap_rungs = {"native",
                                           "inproc",
                                           "systrap",
                                           "systrap-futex",
                                           "systrap-1cpu",
                                           "systrap-patch",
                                           "systrap-patch-sentry"};
  for (const std::string subject : {"getppid", "read4k", "openat-close", "getppid-gap"}) {
    if (!o.subjects.count(subject)) continue;
    const bool gap = subject == "getppid-gap";
    long calls = gap       ? (o.quick ? 200 : 1000)
                 : o.quick ? (subject == "getppid" ? 20000 : 10000)
                           : 200000;
    for (const Rung& rung : rungs) {
      if (!o.rungs.count(rung.name)) continue;
      if (gap && !gap_rungs.count(rung.name)) continue;
      const bool handoff = rung.name == "handoff-floor";
      if (handoff && (subject != "getppid" || !two_cpus_allowed)) continue;
      // The slow rungs get fewer calls: the same precision in a fraction of the time.
      long n = !gap && (rung.name == "systrap-futex" || rung.name == "systrap-1cpu") ? calls / 10
                                                                                     : calls;
      std::vector<std::string> argv =
          handoff ? context.Workload({"handoff", std::to_string(n)})
                  : context.Workload({"trap-loop", rung.mode, subject, std::to_string(n)});
      std::vector<std::string> flags = rung.flags;
      for (std::string& f : flags) {
        if (size_t at = f.find("{call}"); at != std::string::npos)
          f.replace(at, 6, call_of(subject));
      }
      if (rung.platform != "native") argv = context.UnderSnare(rung.platform, flags, argv);
      const int cpu = rung.cpu;
      BenchStep step;
      step.label = "ladder " + subject + " " + rung.name;
      step.measure = [argv, cpu]() -> std::expected<std::vector<double>, std::string> {
        auto j = BenchContext::RunJson(argv, cpu);
        if (!j) return std::unexpected(j.error());
        return std::vector<double>{(*j)["ns_per_call"].get<double>()};
      };
      step.row = {"ladder",
                  rung.name,
                  rung.platform,
                  {{"syscall", subject}, {"calls", std::to_string(n)}},
                  0,
                  "ns/call",
                  {}};
      if (!flags.empty()) step.row.params["flags"] = flags[0];
      if (rung.platform != "native") step.row.params["profile"] = BenchContext::ProfileOf(flags);
      if (cpu >= 0) step.row.params["cpus"] = "1";
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
