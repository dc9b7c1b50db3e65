// RenderMarkdown: the run's header, then one section per suite.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench/lab_saving.h"
#include "bench/report.h"
#include "bench/report_format.h"
#include "results/line_fit.h"

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;
using results::FitLine;

// The row measured on `platform`, or null.
const BenchRow* OnPlatform(const std::map<std::string, const BenchRow*>& by_platform,
                           const std::string& platform) {
  auto it = by_platform.find(platform);
  return it == by_platform.end() ? nullptr : it->second;
}

// One value cell per platform (blank where the point was not measured on it).
void AddValueCells(std::vector<std::string>& line,
                   const std::map<std::string, const BenchRow*>& by_platform,
                   const std::vector<std::string>& platforms, bool with_unit) {
  for (const auto& p : platforms) line.push_back(ValueCell(OnPlatform(by_platform, p), with_unit));
}

// `section` of each platform's rows, under a "### PLATFORM" heading when there are several.
template <typename Section>
std::string PerPlatform(const std::vector<const BenchRow*>& rows, Section section) {
  auto groups = ByPlatform(rows);
  std::string out;
  for (const auto& [platform, group] : groups) {
    if (groups.size() > 1) out += "### " + platform + "\n\n";
    out += section(group);
  }
  return out;
}

std::string LadderSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> syscalls;
  for (const BenchRow* row : rows) AddOnce(syscalls, Param(*row, "syscall"));
  std::string out;
  for (const auto& syscall : syscalls) {
    double native = kNaN, floor = kNaN, handoff = kNaN, systrap = kNaN;
    for (const BenchRow* row : rows) {
      if (Param(*row, "syscall") != syscall) continue;
      if (row->name == "native" && std::isnan(native)) native = row->value;
      if (row->name == "signal-floor" && std::isnan(floor)) floor = row->value;
      if (row->name == "handoff-floor" && std::isnan(handoff)) handoff = row->value;
      if (row->name == "systrap" && std::isnan(systrap)) systrap = row->value;
    }
    std::vector<std::vector<std::string>> table;
    for (const BenchRow* row : rows) {
      if (Param(*row, "syscall") != syscall) continue;
      table.push_back({row->name, row->platform, FormatNumber(row->value),
                       FormatRatio(Ratio(row->value, native)),
                       FormatRatio(Ratio(row->value, floor))});
    }
    out += "### " + (syscall.empty() ? std::string("(no syscall given)") : syscall) + "\n\n";
    out += MarkdownTable({"rung", "platform", "ns/call", "x native", "x signal floor"}, table,
                         "llrrr");
    out += "\n";
    // A passthrough under systrap pays the signal, the call itself and an answer from the
    // sentry's CPU: no handoff design gets under that sum on this machine.
    const double least = floor + native + handoff;
    if (std::isfinite(least) && std::isfinite(systrap)) {
      out +=
          "systrap's least here: the signal floor, the call itself (native) and one handoff "
          "floor make " +
          FormatNumber(least) + " ns (" + FormatRatio(Ratio(least, floor)) +
          " x signal floor); systrap took " + FormatNumber(systrap) + " ns, " +
          FormatNumber(systrap - least) + " ns above it.\n\n";
    }
  }
  return out;
}

std::string Percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  return fmt::format("{:.1f}%", fraction * 100);
}

std::string DepthFitText(const std::vector<const BenchRow*>& rows) {
  std::vector<double> xs, ys;
  for (const BenchRow* row : rows) {
    double depth = ParseNumber(Param(*row, "depth"));
    if (std::isfinite(depth)) {
      xs.push_back(depth);
      ys.push_back(row->value);
    }
  }
  auto fit = FitLine(xs, ys);
  if (!fit) return "Slope: not fitted (" + fit.error() + ").\n";
  std::string out = "Slope: " + FormatNumber(fit->slope) + " ns/level";
  if (std::isnan(fit->slope_ci95)) {
    out += " (no 95% CI: it needs at least 3 depths)";
  } else {
    out += " (95% CI " + FormatNumber(fit->slope - fit->slope_ci95) + " to " +
           FormatNumber(fit->slope + fit->slope_ci95) + ", t with " +
           std::to_string(fit->points - 2) + " df over " + std::to_string(fit->points) + " depths)";
  }
  out += ", intercept " + FormatNumber(fit->intercept) + " ns at depth 0.\n\n";

  auto share = [&](double d) { return Ratio(fit->slope * d, fit->intercept + fit->slope * d); };
  out +=
      "Implied ucount share of a trap at depth d: share(d) = slope*d / (intercept + "
      "slope*d): " +
      Percent(share(1)) + " at d = 1";
  for (const BenchRow* row : rows) {
    double caller = ParseNumber(Param(*row, "caller_depth"));
    if (std::isfinite(caller)) {
      out += ", " + Percent(share(caller)) + " at d = " + Param(*row, "caller_depth") +
             " (the caller's depth)";
      break;
    }
  }
  return out + ".\n";
}

std::string DepthSection(const std::vector<const BenchRow*>& rows) {
  return PerPlatform(rows, [](const std::vector<const BenchRow*>& group) {
    std::vector<std::vector<std::string>> table;
    for (const BenchRow* row : SortedBy(group, "depth")) {
      table.push_back({Param(*row, "depth"), FormatNumber(row->value)});
    }
    return MarkdownTable({"depth", "ns/trap"}, table, "rr") + "\n" + DepthFitText(group) + "\n";
  });
}

std::string ContentionSection(const std::vector<const BenchRow*>& rows) {
  return PerPlatform(rows, [](const std::vector<const BenchRow*>& group) {
    std::vector<std::string> modes = {"same-ns", "sibling-ns", "distinct-uid"};
    std::vector<std::string> tasks;
    for (const BenchRow* row : SortedBy(group, "tasks")) {
      AddOnce(modes, Param(*row, "mode"));
      AddOnce(tasks, Param(*row, "tasks"));
    }
    const std::string unit = CommonUnit(group);
    // Rates of a million or so read best in one scale: "0.87 M" beside "1.06 M".
    double largest = 0;
    for (const BenchRow* row : group) largest = std::max(largest, std::fabs(row->value));
    const bool millions = !unit.empty() && largest >= 1e5;
    std::vector<std::vector<std::string>> table;
    for (const auto& t : tasks) {
      std::vector<std::string> line = {t};
      for (const auto& mode : modes) {
        const BenchRow* found = nullptr;
        for (const BenchRow* row : group) {
          if (Param(*row, "tasks") == t && Param(*row, "mode") == mode) found = row;
        }
        line.push_back(found && millions ? fmt::format("{:.2f} M", found->value / 1e6)
                                         : ValueCell(found, unit.empty()));
      }
      table.push_back(line);
    }
    std::vector<std::string> header = {"tasks"};
    header.insert(header.end(), modes.begin(), modes.end());
    return "Traps/s per process, by number of trapping tasks and how they share ucounts" +
           (unit.empty() || unit == "traps/s" ? "" : " (in " + unit + ")") + ".\n\n" +
           MarkdownTable(header, table, "r") + "\n";
  });
}

std::string WorkloadSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::pair<std::string, std::string>> points;  // (workload, tasks)
  std::vector<std::string> platforms = {"native", "inproc", "systrap"};
  for (const BenchRow* row : rows) {
    std::pair<std::string, std::string> point = {row->name, Param(*row, "tasks")};
    if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(point);
    AddOnce(platforms, row->platform);
  }
  const std::string unit = CommonUnit(rows);
  std::vector<std::vector<std::string>> table;
  for (const auto& [workload, tasks] : points) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == workload && Param(*row, "tasks") == tasks) {
        by_platform.emplace(row->platform, row);
      }
    }
    std::vector<std::string> line = {workload, tasks};
    AddValueCells(line, by_platform, platforms, unit.empty());
    const BenchRow* native = OnPlatform(by_platform, "native");
    const BenchRow* systrap = OnPlatform(by_platform, "systrap");
    line.push_back(native && systrap && native->unit == systrap->unit
                       ? FormatRatio(Ratio(systrap->value, native->value))
                       : "");
    table.push_back(line);
  }
  std::vector<std::string> header = {"workload", "tasks"};
  header.insert(header.end(), platforms.begin(), platforms.end());
  header.push_back("systrap/native");
  return UnitNote(unit) + MarkdownTable(header, table, "lr") + "\n";
}

std::string PeerColumn(const std::string& platform) {
  if (platform == "systrap") return "snare systrap";
  if (platform == "systrap-patch") return "systrap --patch";
  if (platform == "native-busy") return "native, busy CPU beside";
  if (platform == "strace") return "strace -f";
  return platform;
}

std::string PeerSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> subjects;
  std::vector<std::string> platforms = {"native", "systrap", "runsc-ptrace", "proot", "strace"};
  for (const BenchRow* row : rows) {
    AddOnce(subjects, row->name);
    AddOnce(platforms, row->platform);
  }
  const std::string unit = CommonUnit(rows);
  std::vector<std::vector<std::string>> table;
  for (const auto& subject : subjects) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == subject) by_platform.emplace(row->platform, row);
    }
    std::vector<std::string> line = {subject};
    AddValueCells(line, by_platform, platforms, unit.empty());
    std::string ratios;
    const BenchRow* snare = OnPlatform(by_platform, "systrap");
    for (const auto& p : platforms) {
      const BenchRow* peer = OnPlatform(by_platform, p);
      if (p == "native" || p == "systrap" || !peer || !snare || peer->unit != snare->unit) {
        continue;
      }
      std::string r = FormatRatio(Ratio(peer->value, snare->value));
      if (r.empty()) continue;
      if (!ratios.empty()) ratios += ", ";
      ratios += PeerColumn(p) + " " + r + "x";
    }
    line.push_back(ratios);
    table.push_back(line);
  }
  std::vector<std::string> header = {"subject"};
  for (const auto& p : platforms) header.push_back(PeerColumn(p));
  header.push_back("peer/snare ratios");
  std::string align(header.size(), 'r');
  align.front() = align.back() = 'l';
  return UnitNote(unit) + MarkdownTable(header, table, align) + "\n";
}

// A number param of row (NaN when absent).
double NumberParam(const BenchRow* row, const std::string& key) {
  if (!row) return kNaN;
  const std::string text = Param(*row, key);
  return text.empty() ? kNaN : std::strtod(text.c_str(), nullptr);
}

// The ladder's getppid value on `rung` in run (NaN when it was not measured).
double LadderGetppid(const BenchRun& run, const std::string& rung) {
  for (const BenchRow& row : run.rows) {
    if (row.suite == "ladder" && row.name == rung && Param(row, "syscall") == "getppid") {
      return row.value;
    }
  }
  return kNaN;
}

std::string ProgramSection(const std::vector<const BenchRow*>& rows, const BenchRun& run) {
  // What delivering one SIGSYS costs, from the same run's ladder (floor - native).
  const double signal_ns = LadderGetppid(run, "signal-floor") - LadderGetppid(run, "native");
  const BenchRow* lab = nullptr;  // the reserve kernel's share of a trap, from the lab
  for (const auto& row : run.rows) {
    if (row.suite == kLabSavingSuite) lab = &row;
  }
  std::vector<std::string> programs;
  std::vector<std::string> platforms = {"native", "inproc", "systrap", "systrap-patch"};
  // Runs stored before it existed have no native-busy row: no empty columns for them.
  const bool busy_runs = std::any_of(
      rows.begin(), rows.end(), [](const BenchRow* row) { return row->platform == "native-busy"; });
  if (busy_runs) platforms.insert(platforms.begin() + 1, "native-busy");
  for (const BenchRow* row : rows) {
    AddOnce(programs, row->name);
    AddOnce(platforms, row->platform);
  }
  std::vector<std::vector<std::string>> table;
  for (const auto& program : programs) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == program) by_platform.emplace(row->platform, row);
    }
    std::vector<std::string> line = {program};
    AddValueCells(line, by_platform, platforms, false);
    const BenchRow* native = OnPlatform(by_platform, "native");
    const BenchRow* systrap = OnPlatform(by_platform, "systrap");
    const BenchRow* inproc = OnPlatform(by_platform, "inproc");
    auto ratio = [&](const BenchRow* r) {
      return native && r ? FormatRatio(PairedRatio(*r, *native)) : std::string();
    };
    const BenchRow* patched = OnPlatform(by_platform, "systrap-patch");
    line.push_back(ratio(systrap));
    line.push_back(ratio(patched));
    if (busy_runs) {
      const BenchRow* busy = OnPlatform(by_platform, "native-busy");
      line.push_back(ratio(busy));
      line.push_back(busy && patched ? FormatRatio(PairedRatio(*patched, *busy)) : "");
    }
    line.push_back(ratio(inproc));
    auto number = [](double v) { return std::isnan(v) ? std::string() : FormatNumber(v); };
    line.push_back(number(NumberParam(native, "cpu_ms")));
    line.push_back(number(NumberParam(patched, "first_call_ms")));
    const double calls = NumberParam(systrap, "trapped_calls");
    line.push_back(number(calls));
    line.push_back(systrap && calls > 0 ? number(calls / (systrap->value / 1e3)) : "");
    const double threads = NumberParam(systrap, "guest_threads");
    // A count: whole, grouped as the other counts are (11, not 11.0), unless a median split it.
    line.push_back(threads == std::round(threads) ? GroupThousands(fmt::format("{:.0f}", threads))
                                                  : number(threads));
    line.push_back(number(NumberParam(systrap, "trap_ns_per_call")));
    line.push_back(native && systrap && calls > 0
                       ? number((systrap->value - native->value) * 1e6 / calls)
                       : "");
    const double patched_calls = NumberParam(patched, "patched_calls");
    const double patched_total = NumberParam(patched, "trapped_calls");
    line.push_back(patched_total > 0 ? Percent(patched_calls / patched_total) : "");
    line.push_back(number(NumberParam(systrap, "sentry_cpu_per_guest_cpu")));
    line.push_back(systrap && calls > 0 && !std::isnan(signal_ns)
                       ? Percent(calls * signal_ns / (systrap->value * 1e6))
                       : "");
    line.push_back(systrap && patched ? Percent(1 - PairedRatio(*patched, *systrap)) : "");
    line.push_back(systrap && calls > 0 && !std::isnan(signal_ns) && lab
                       ? Percent(calls * signal_ns * lab->value / (systrap->value * 1e6))
                       : "");
    table.push_back(line);
  }
  std::vector<std::string> header = {"program (ms)"};
  for (const auto& p : platforms) header.push_back(PeerColumn(p));
  header.push_back("systrap/native");
  header.push_back("patch/native");
  if (busy_runs) {
    header.push_back("busy/native");
    header.push_back("patch/busy");
  }
  for (const char* h :
       {"inproc/native", "native CPU (ms)", "first call (ms)", "trapped calls", "calls/s (systrap)",
        "guest threads", "stub trap ns/call", "overhead ns/call", "patched", "sentry CPU/guest CPU",
        "in signal delivery", "patching removed", "reserve kernel removes"}) {
    header.push_back(h);
  }
  std::string align(header.size(), 'r');
  align.front() = 'l';
  std::string out = MarkdownTable(header, table, align) + "\n";
  out +=
      "x/native: the median of the rounds' ratios (each round runs a program natively, then on "
      "each platform, back to back); native CPU (ms): the native run's user + system time (a "
      "native wall time far above it "
      "waited on something other than the program's own work, and its ratios mislead); "
      "native, busy CPU beside: the native run while a thread of snare bench spins on another "
      "CPU (`pause`, at SCHED_IDLE: on a CPU nothing else wants), as a sentry waiting for a trap "
      "does; busy/native: what that alone costs the program (on some VMs a busy second vCPU "
      "slows a program that never talks to it); patch/busy: systrap --patch against that run, "
      "the cost with the spinning's share taken out; first "
      "call (ms): with --patch, from snare's start to the guest's first call reaching the "
      "sentry (snare's setup, the guest's process, the stub's exec and loading: what a short "
      "program pays before its own first call, beside the native run's whole time); stub "
      "trap ns/call: the stub's own mean (advisory; without signal delivery and the call "
      "itself), which counts the wait for a CPU where more guest threads (the most the sentry "
      "served at once under systrap) trap than there are CPUs; overhead ns/call: (systrap - "
      "native) wall time per trapped call";
  const double ladder = LadderGetppid(run, "systrap") - LadderGetppid(run, "native");
  if (!std::isnan(ladder)) {
    out += ", against " + FormatNumber(ladder) + " for getppid on the ladder (systrap - native)";
  }
  if (!std::isnan(signal_ns)) {
    out += "; in signal delivery: the share of systrap's wall time that trapped calls x " +
           FormatNumber(signal_ns) +
           " ns (the ladder's signal floor - native) make up, what syscall patching would "
           "remove with the signal; patching removed: the share of systrap's wall time that "
           "--patch took off";
  }
  if (lab && !std::isnan(signal_ns)) {
    out += "; reserve kernel removes: in signal delivery x " + Percent(lab->value) +
           ", the share of a trap that the ucount charge costs at user-namespace depth " +
           Param(*lab, "depth") + " on the kernel lab's stock and reserve kernels (lab runs " +
           Param(*lab, "stock_run") + " and " + Param(*lab, "reserve_run") +
           ", instructions under -icount carried over to this machine's signal floor)";
  }
  return out + ".\n\n";
}

// Per module: passed/failed/skipped on each platform, the wall time's ratio to native, then
// the tests each platform lost (passed natively, not there).
std::string CpythonSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> modules;
  std::vector<std::string> platforms = {"native", "systrap", "inproc", "systrap-patch"};
  for (const BenchRow* row : rows) {
    AddOnce(modules, row->name);
    AddOnce(platforms, row->platform);
  }
  std::vector<std::vector<std::string>> table;
  std::string lost;
  for (const auto& module : modules) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == module) by_platform.emplace(row->platform, row);
    }
    std::vector<std::string> line = {module};
    for (const auto& p : platforms) {
      const BenchRow* row = OnPlatform(by_platform, p);
      line.push_back(row ? Param(*row, "passed") + "/" + Param(*row, "failed") + "/" +
                               Param(*row, "skipped") +
                               (Param(*row, "xml").empty() ? "" : " (no XML)")
                         : "");
    }
    const BenchRow* native = OnPlatform(by_platform, "native");
    line.push_back(native ? fmt::format("{:.1f}", native->value / 1e3) : "");
    for (const auto& p : platforms) {
      if (p == "native") continue;
      const BenchRow* row = OnPlatform(by_platform, p);
      line.push_back(native && row ? FormatRatio(Ratio(row->value, native->value)) : "");
      if (row && !Param(*row, "lost_tests").empty()) {
        lost += "- " + module + " on " + p + ": " + Param(*row, "lost_tests") + "\n";
      }
    }
    table.push_back(line);
  }
  std::vector<std::string> header = {"module"};
  for (const auto& p : platforms) header.push_back(p + " p/f/s");
  header.push_back("native s");
  for (const auto& p : platforms) {
    if (p != "native") header.push_back(p + "/native");
  }
  std::string align(header.size(), 'r');
  align.front() = 'l';
  std::string out = MarkdownTable(header, table, align) + "\n";
  out += "p/f/s: tests passed/failed/skipped; a test whose subtests failed counts as failed.\n\n";
  if (lost.empty()) return out + "Every test that passed natively passed on every platform.\n\n";
  return out + "Passed natively, not on the platform:\n\n" + lost + "\n";
}

std::string StressSection(const std::vector<const BenchRow*>& rows) {
  const std::vector<std::string> platforms = {"native", "systrap", "inproc", "systrap-patch"};
  std::vector<std::string> stressors;
  for (const BenchRow* row : rows) AddOnce(stressors, row->name);
  std::vector<std::vector<std::string>> table;
  for (const auto& stressor : stressors) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name == stressor) by_platform.emplace(row->platform, row);
    }
    const BenchRow* native = OnPlatform(by_platform, "native");
    std::vector<std::string> line = {stressor};
    std::string statuses;
    for (const auto& p : platforms) {
      const BenchRow* row = OnPlatform(by_platform, p);
      statuses += (statuses.empty() ? "" : "/") + (row ? Param(*row, "exit_status") : "-");
    }
    line.push_back(statuses);
    AddValueCells(line, by_platform, platforms, false);
    for (const auto& p : platforms) {
      if (p == "native") continue;
      const BenchRow* row = OnPlatform(by_platform, p);
      line.push_back(native && row ? FormatRatio(Ratio(row->value, native->value)) : "");
    }
    table.push_back(line);
  }
  std::vector<std::string> header = {"stressor", "exit (native/systrap/inproc/patch)"};
  for (const auto& p : platforms) header.push_back(p + " bogo ops/s");
  for (const char* h : {"systrap/native", "inproc/native", "patch/native"}) header.push_back(h);
  std::string align(header.size(), 'r');
  align[0] = 'l';
  align[1] = 'l';
  return MarkdownTable(header, table, align) +
         "\nbogo ops/s in real time, medians; a ratio below 1 is a slowdown.\n\n";
}

// Each program natively and under snare, both beside the same CPU hogs.
std::string CrowdedSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::string> programs;
  for (const BenchRow* row : rows) AddOnce(programs, row->name);
  std::vector<std::vector<std::string>> table;
  std::string hogs;
  for (const std::string& program : programs) {
    std::map<std::string, const BenchRow*> by_platform;
    for (const BenchRow* row : rows) {
      if (row->name != program) continue;
      by_platform.emplace(row->platform, row);
      hogs = Param(*row, "hogs");
    }
    const BenchRow* native = OnPlatform(by_platform, "native");
    const BenchRow* snare = OnPlatform(by_platform, "systrap-patch");
    table.push_back({program, native ? FormatNumber(native->value) : "",
                     snare ? FormatNumber(snare->value) : "",
                     native && snare ? FormatRatio(Ratio(snare->value, native->value)) : ""});
  }
  return "Wall ms with " + hogs +
         " CPU hogs (one per allowed CPU) running beside each run; snare is `snare run` as "
         "it runs by default (systrap, --patch).\n\n" +
         MarkdownTable({"program", "native", "snare", "snare/native"}, table, "lrrr") + "\n";
}

std::string OtherSection(const std::vector<const BenchRow*>& rows) {
  std::vector<std::vector<std::string>> table;
  for (const BenchRow* row : rows) {
    table.push_back(
        {row->name, row->platform, FormatParams(row->params), FormatNumber(row->value), row->unit});
  }
  return MarkdownTable({"name", "platform", "params", "value", "unit"}, table, "lllrl") + "\n";
}

}  // namespace

std::string RenderMarkdown(const BenchRun& run) {
  std::string out = "# snare bench run " + std::to_string(run.id) + "\n\n";
  out += "- date: " + run.started_at + "\n";
  out += "- kernel: " + KernelText(run) + "\n";
  out += "- CPU: " + run.cpu_model + "\n";
  out += "- cores: " + std::to_string(run.cores) + "\n";
  out += "- revision: " + run.revision + "\n";
  out += "- command: " + Code(run.command) + "\n";
  out += "- duration: " + fmt::format("{:.1f}", run.duration_s) + " s" +
         (run.quick ? " (quick run: fewer repetitions)" : "") + "\n";
  for (const auto& suite : SuitesInOrder({&run})) {
    auto rows = RowsOf(run, suite);
    if (rows.empty()) continue;
    while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
    out += "\n## " + suite + "\n\n";
    if (suite == "ladder") {
      out += LadderSection(rows);
    } else if (suite == "depth") {
      out += DepthSection(rows);
    } else if (suite == "contention") {
      out += ContentionSection(rows);
    } else if (suite == "workload") {
      out += WorkloadSection(rows);
    } else if (suite == "peer") {
      out += PeerSection(rows);
    } else if (suite == "programs") {
      out += ProgramSection(rows, run);
    } else if (suite == "cpython") {
      out += CpythonSection(rows);
    } else if (suite == "stress") {
      out += StressSection(rows);
    } else if (suite == "crowded") {
      out += CrowdedSection(rows);
    } else {
      out += OtherSection(rows);
    }
  }
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace snare::bench
