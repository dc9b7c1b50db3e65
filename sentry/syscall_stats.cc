#include "sentry/syscall_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>

#include "abi/syscall_table.h"

namespace snare::sentry {
namespace {

// What the stub counts in guest memory: every field of a row but the sentry's.
constexpr const char* kAdvisoryFields[] = {"calls",           "errors",           "patched_calls",
                                           "in_stub_calls",   "trap_ns_per_call", "trap_ns_total",
                                           "syscall_ns_total"};

}  // namespace

SyscallStats CollectStats(const std::vector<platform::SyscallCounters>& sum,
                          const std::vector<SentryCounters>& sentry, double ns_per_tick,
                          std::string platform, const std::vector<SentryCounters>& notified) {
  SyscallStats stats;
  stats.platform = std::move(platform);
  stats.authoritative = !sentry.empty();
  stats.total.name = "total";
  stats.total.nr = -1;
  stats.notified = !notified.empty();
  const size_t limit = std::max({sum.size(), sentry.size(), notified.size()});
  for (size_t nr = 0; nr < limit; ++nr) {
    const platform::SyscallCounters stub = nr < sum.size() ? sum[nr] : platform::SyscallCounters{};
    const SentryCounters own = nr < sentry.size() ? sentry[nr] : SentryCounters{};
    const uint64_t kernel = nr < notified.size() ? notified[nr].calls : 0;
    if (!stub.calls && !own.calls && !kernel) continue;
    SyscallStatsRow row;
    row.nr = static_cast<int>(nr);
    const char* name = abi::SyscallName(static_cast<uint64_t>(nr));
    row.name = name ? name : "syscall_" + std::to_string(nr);
    row.sentry_calls = own.calls;
    row.sentry_denied = own.denied;
    row.sentry_killed = own.killed;
    row.notified_calls = kernel;
    row.calls = stub.calls;
    row.errors = stub.errors;
    row.patched = stub.patched;
    row.in_stub = stub.in_stub;
    stats.patched |= stub.patched > 0;
    row.trap_ns = static_cast<double>(stub.overhead_ticks) * ns_per_tick;
    row.syscall_ns = static_cast<double>(stub.syscall_ticks) * ns_per_tick;
    stats.total.sentry_calls += row.sentry_calls;
    stats.total.sentry_denied += row.sentry_denied;
    stats.total.sentry_killed += row.sentry_killed;
    stats.total.notified_calls += row.notified_calls;
    stats.total.calls += row.calls;
    stats.total.errors += row.errors;
    stats.total.patched += row.patched;
    stats.total.in_stub += row.in_stub;
    stats.total.trap_ns += row.trap_ns;
    stats.total.syscall_ns += row.syscall_ns;
    stats.rows.push_back(std::move(row));
  }
  const bool by_sentry = stats.authoritative;
  std::sort(stats.rows.begin(), stats.rows.end(), [by_sentry](const auto& a, const auto& b) {
    const uint64_t ka = (by_sentry ? a.sentry_calls : a.calls) + a.notified_calls;
    const uint64_t kb = (by_sentry ? b.sentry_calls : b.calls) + b.notified_calls;
    return ka != kb ? ka > kb : a.nr < b.nr;
  });
  return stats;
}

double CpuPerGuestCpu(const SyscallStats& stats) {
  return stats.guest_cpu_s > 0 ? stats.sentry_cpu_s / stats.guest_cpu_s : 0;
}

uint64_t PeakRssKb() {
  FILE* f = fopen("/proc/self/status", "re");
  if (!f) return 0;
  char line[256];
  unsigned long long kb = 0;
  while (fgets(line, sizeof(line), f)) {
    if (sscanf(line, "VmHWM: %llu kB", &kb) == 1) break;
  }
  fclose(f);
  return kb;
}

std::string RenderStatsTable(const SyscallStats& stats) {
  const bool own = stats.authoritative;
  std::string out = fmt::format(
      "snare: {} trap summary (trap = handler time, excluding the call)\n", stats.platform);
  auto row = [&](const SyscallStatsRow& r) {
    const double per_call = r.calls ? r.trap_ns / static_cast<double>(r.calls) : 0;
    out += fmt::format("{:<22}", r.name);
    if (own) out += fmt::format(" {:>10}", r.sentry_calls);
    if (stats.notified) out += fmt::format(" {:>10}", r.notified_calls);
    fmt::format_to(std::back_inserter(out), " {:>10} {:>8}", r.calls, r.errors);
    if (stats.patched) out += fmt::format(" {:>10} {:>10}", r.patched, r.in_stub);
    fmt::format_to(std::back_inserter(out), " {:>12.0f} {:>14.3f} {:>14.3f}\n", per_call,
                   r.trap_ns / 1e6, r.syscall_ns / 1e6);
  };
  out += fmt::format("{:<22}", "syscall");
  if (own) out += fmt::format(" {:>10}", "sentry");
  if (stats.notified) out += fmt::format(" {:>10}", "notified");
  fmt::format_to(std::back_inserter(out), " {:>10} {:>8}", "calls", "errors");
  if (stats.patched) out += fmt::format(" {:>10} {:>10}", "patched", "in stub");
  fmt::format_to(std::back_inserter(out), " {:>12} {:>14} {:>14}\n", "trap ns/call",
                 "trap total ms", "in-call ms");
  const std::string rule((own ? 96 : 85) + (stats.notified ? 11 : 0) + (stats.patched ? 22 : 0),
                         '-');
  out += rule + "\n";
  for (const auto& r : stats.rows) row(r);
  out += rule + "\n";
  row(stats.total);
  fmt::format_to(std::back_inserter(out),
                 "sentry peak RSS {} KiB, {} guest threads served at once\n",
                 stats.sentry_peak_rss_kb, stats.peak_tasks);
  fmt::format_to(std::back_inserter(out),
                 "sentry CPU {:.3f} s for {:.3f} s of guest CPU ({:.2f} per guest CPU second)",
                 stats.sentry_cpu_s, stats.guest_cpu_s, CpuPerGuestCpu(stats));
  if (own) {
    fmt::format_to(std::back_inserter(out),
                   "; it slept {} times, spin window {} us, moved off a guest thread's CPU {} "
                   "times, found the CPUs crowded {} times",
                   stats.idling.sleeps, stats.idling.spin_window_ns / 1000, stats.idling.cpu_moves,
                   stats.idling.crowded_reads);
  }
  out += "\n";
  if (stats.first_call_ms) {
    fmt::format_to(std::back_inserter(out),
                   "the guest's first call reached the sentry {:.1f} ms after snare started",
                   *stats.first_call_ms);
    if (stats.reaped_ms) {
      fmt::format_to(std::back_inserter(out), "; its last process was reaped at {:.1f} ms",
                     *stats.reaped_ms);
    }
    out += "\n";
  }
  out += own ? "snare: \"sentry\" counts what the sentry handled (authoritative); the other "
               "columns come from guest memory (advisory)\n"
             : "snare: " + stats.platform +
                   " decides inside the guest: every number above comes from guest memory "
                   "(advisory)\n";
  if (stats.patched) {
    out +=
        "snare: \"in stub\" counts the patched calls the stub ran without asking the sentry: "
        "the policy passes them and the kernel's filter holds the stub to it (--all-to-sentry "
        "sends them to the sentry too)\n";
  }
  if (stats.notified) {
    out +=
        "snare: \"notified\" counts the calls the kernel handed the sentry as seccomp user "
        "notifications (authoritative)\n";
  }
  return out;
}

std::string RenderStatsJson(const SyscallStats& stats) {
  const bool own = stats.authoritative;
  auto row = [own, &stats](const SyscallStatsRow& r) {
    nlohmann::json j = {
        {"name", r.name},
        {"nr", r.nr},
        {"calls", r.calls},
        {"errors", r.errors},
        {"patched_calls", r.patched},
        {"in_stub_calls", r.in_stub},
        {"trap_ns_per_call", r.calls ? r.trap_ns / static_cast<double>(r.calls) : 0.0},
        {"trap_ns_total", r.trap_ns},
        {"syscall_ns_total", r.syscall_ns},
    };
    if (own) {
      j["sentry_calls"] = r.sentry_calls;
      j["sentry_denied"] = r.sentry_denied;
      j["sentry_killed"] = r.sentry_killed;
    }
    if (stats.notified) j["notified_calls"] = r.notified_calls;
    return j;
  };
  nlohmann::json j;
  j["platform"] = stats.platform;
  // Which count to believe: the sentry's own, or none at all (inproc).
  j["authoritative"] = own ? nlohmann::json("sentry_calls") : nlohmann::json(nullptr);
  j["advisory"] = kAdvisoryFields;
  j["note"] = own ? "sentry_* fields count what the sentry handled, in its own memory; the "
                    "advisory fields come from the stub's counters in guest memory"
                  : stats.platform +
                        " decides inside the guest: every count comes from guest memory and "
                        "nothing here is authoritative";
  if (stats.notified) {
    j["notified"] =
        "notified_calls: the calls the kernel handed the sentry as seccomp user "
        "notifications, counted in its own memory (authoritative)";
  }
  j["syscalls"] = nlohmann::json::array();
  for (const auto& r : stats.rows) j["syscalls"].push_back(row(r));
  nlohmann::json total = row(stats.total);
  total.erase("nr");
  total.erase("name");
  j["total"] = total;
  j["sentry"] = {{"peak_rss_kb", stats.sentry_peak_rss_kb},
                 {"peak_tasks", stats.peak_tasks},
                 {"cpu_s", stats.sentry_cpu_s},
                 {"cpu_per_guest_cpu", CpuPerGuestCpu(stats)}};
  if (own) {
    j["sentry"]["sleeps"] = stats.idling.sleeps;
    j["sentry"]["spin_window_ns"] = stats.idling.spin_window_ns;
    j["sentry"]["cpu_moves"] = stats.idling.cpu_moves;
    j["sentry"]["crowded_reads"] = stats.idling.crowded_reads;
  }
  if (stats.first_call_ms) j["sentry"]["first_call_ms"] = *stats.first_call_ms;
  if (stats.reaped_ms) j["sentry"]["reaped_ms"] = *stats.reaped_ms;
  j["guest"] = {{"cpu_s", stats.guest_cpu_s}};
  if (stats.trace_lines_dropped) j["trace"] = {{"lines_dropped", *stats.trace_lines_dropped}};
  return j.dump(2) + "\n";
}

}  // namespace snare::sentry
