#include "bench/bench_options.h"

#include <cstdlib>

#include "bench/syscall_subject.h"
#include "bench/trap_sweeps.h"

namespace snare::bench {
namespace {

bool TakeValue(const std::string& arg, const std::string& flag, std::string* value) {
  if (arg.rfind(flag + "=", 0) != 0) return false;
  *value = arg.substr(flag.size() + 1);
  return true;
}

std::expected<std::set<std::string>, std::string> ParseList(const std::string& flag,
                                                            const std::string& value,
                                                            const std::vector<std::string>& known) {
  std::set<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    std::string item = value.substr(start, comma - start);
    bool ok = false;
    for (const auto& k : known) ok = ok || k == item;
    if (!ok) {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
      return std::unexpected("unknown name '" + item + "' in " + flag + " (known: " + names + ")");
    }
    out.insert(item);
    start = comma + 1;
  }
  return out;
}

std::expected<int, std::string> ParseInt(const std::string& flag, const std::string& value, int lo,
                                         int hi) {
  char* end;
  long v = strtol(value.c_str(), &end, 10);
  if (value.empty() || *end || v < lo || v > hi) {
    return std::unexpected(flag + " wants a number from " + std::to_string(lo) + " to " +
                           std::to_string(hi) + ", not '" + value + "'");
  }
  return static_cast<int>(v);
}

}  // namespace

const std::vector<std::string>& SuiteNames() {
  static const std::vector<std::string> names = {"ladder",    "depth", "contention",
                                                 "workloads", "peers", "memory"};
  return names;
}

const std::vector<std::string>& RungNames() {
  static const std::vector<std::string> names = {"native",        "filter-allow", "filter-errno",
                                                 "signal-floor",  "inproc",       "systrap",
                                                 "systrap-futex", "systrap-1cpu"};
  return names;
}

std::expected<BenchOptions, std::string> ParseBenchOptions(const std::vector<std::string>& args) {
  BenchOptions o;
  bool reps_set = false, step_set = false;
  for (const std::string& a : args) {
    std::string v;
    std::expected<int, std::string> n;
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (TakeValue(a, "--db", &v)) {
      if (v.empty()) return std::unexpected(std::string("--db needs a path"));
      o.db = v;
    } else if (TakeValue(a, "--suites", &v)) {
      auto s = ParseList("--suites", v, SuiteNames());
      if (!s) return std::unexpected(s.error());
      o.suites = *s;
    } else if (TakeValue(a, "--rungs", &v)) {
      auto s = ParseList("--rungs", v, RungNames());
      if (!s) return std::unexpected(s.error());
      o.rungs = *s;
    } else if (TakeValue(a, "--syscalls", &v)) {
      auto s = ParseList("--syscalls", v, SyscallSubject::Names());
      if (!s) return std::unexpected(s.error());
      o.subjects = *s;
    } else if (TakeValue(a, "--max-depth", &v)) {
      if (!(n = ParseInt("--max-depth", v, 0, kMaxUserNamespaceDepth))) {
        return std::unexpected(n.error() + " (the kernel nests at most 32 user namespaces)");
      }
      o.max_depth = *n;
    } else if (TakeValue(a, "--depth-step", &v)) {
      if (!(n = ParseInt("--depth-step", v, 1, 32))) return std::unexpected(n.error());
      o.depth_step = *n;
      step_set = true;
    } else if (TakeValue(a, "--max-tasks", &v)) {
      if (!(n = ParseInt("--max-tasks", v, 1, 1024))) return std::unexpected(n.error());
      o.max_tasks = *n;
    } else if (TakeValue(a, "--reps", &v)) {
      if (!(n = ParseInt("--reps", v, 1, 1000))) return std::unexpected(n.error());
      o.reps = *n;
      reps_set = true;
    } else {
      return std::unexpected("unknown argument '" + a + "'");
    }
  }
  if (o.suites.empty()) o.suites = {SuiteNames().begin(), SuiteNames().end()};
  if (o.rungs.empty()) o.rungs = {RungNames().begin(), RungNames().end()};
  if (o.subjects.empty())
    o.subjects = {SyscallSubject::Names().begin(), SyscallSubject::Names().end()};
  if (o.quick && !reps_set) o.reps = 3;
  if (o.quick && !step_set) o.depth_step = 4;
  return o;
}

}  // namespace snare::bench
