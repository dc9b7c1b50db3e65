#include "sentry/syscall_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>

#include "abi/syscall_table.h"

namespace snare::sentry {

SyscallStats CollectStats(const std::vector<platform::SyscallCounters>& sum, double ns_per_tick,
                          std::string platform) {
  SyscallStats stats;
  stats.platform = std::move(platform);
  stats.total.name = "total";
  stats.total.nr = -1;
  for (int nr = 0; nr < static_cast<int>(sum.size()); ++nr) {
    if (!sum[nr].calls) continue;
    SyscallStatsRow row;
    row.nr = nr;
    const char* name = abi::SyscallName(static_cast<uint64_t>(nr));
    row.name = name ? name : "syscall_" + std::to_string(nr);
    row.calls = sum[nr].calls;
    row.errors = sum[nr].errors;
    row.trap_ns = static_cast<double>(sum[nr].overhead_ticks) * ns_per_tick;
    row.syscall_ns = static_cast<double>(sum[nr].syscall_ticks) * ns_per_tick;
    stats.total.calls += row.calls;
    stats.total.errors += row.errors;
    stats.total.trap_ns += row.trap_ns;
    stats.total.syscall_ns += row.syscall_ns;
    stats.rows.push_back(std::move(row));
  }
  std::sort(stats.rows.begin(), stats.rows.end(), [](const auto& a, const auto& b) {
    return a.calls != b.calls ? a.calls > b.calls : a.nr < b.nr;
  });
  return stats;
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
  std::string out = fmt::format(
      "snare: {} trap summary (trap = handler time, excluding the call)\n", stats.platform);
  auto row = [&](const SyscallStatsRow& r) {
    const double per_call = r.calls ? r.trap_ns / static_cast<double>(r.calls) : 0;
    fmt::format_to(std::back_inserter(out), "{:<22} {:>10} {:>8} {:>12.0f} {:>14.3f} {:>14.3f}\n",
                   r.name, r.calls, r.errors, per_call, r.trap_ns / 1e6, r.syscall_ns / 1e6);
  };
  fmt::format_to(std::back_inserter(out), "{:<22} {:>10} {:>8} {:>12} {:>14} {:>14}\n", "syscall",
                 "calls", "errors", "trap ns/call", "trap total ms", "in-call ms");
  out += std::string(85, '-') + "\n";
  for (const auto& r : stats.rows) row(r);
  out += std::string(85, '-') + "\n";
  row(stats.total);
  fmt::format_to(std::back_inserter(out),
                 "sentry peak RSS {} KiB, {} guest threads served at once\n",
                 stats.sentry_peak_rss_kb, stats.peak_tasks);
  return out;
}

std::string RenderStatsJson(const SyscallStats& stats) {
  auto row = [](const SyscallStatsRow& r) {
    return nlohmann::json{
        {"name", r.name},
        {"nr", r.nr},
        {"calls", r.calls},
        {"errors", r.errors},
        {"trap_ns_per_call", r.calls ? r.trap_ns / static_cast<double>(r.calls) : 0.0},
        {"trap_ns_total", r.trap_ns},
        {"syscall_ns_total", r.syscall_ns},
    };
  };
  nlohmann::json j;
  j["platform"] = stats.platform;
  j["syscalls"] = nlohmann::json::array();
  for (const auto& r : stats.rows) j["syscalls"].push_back(row(r));
  nlohmann::json total = row(stats.total);
  total.erase("nr");
  total.erase("name");
  j["total"] = total;
  j["sentry"] = {{"peak_rss_kb", stats.sentry_peak_rss_kb}, {"peak_tasks", stats.peak_tasks}};
  return j.dump(2) + "\n";
}

}  // namespace snare::sentry
