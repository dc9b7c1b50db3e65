// The cost of one trapped syscall, rung by rung, measured side by side: every rung runs once
// per repetition, repetitions interleave, and the report gives medians and ratios.
//
//   bazel run //bench:trap_ladder -- [--reps=N] [--calls=N] [--threads=N] [--json=FILE]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/process_runner.h"
#include "sentry/atomic_file.h"

namespace {

using snare::bench::RunProcess;

struct Rung {
  std::string name;
  std::string what;
  std::vector<std::string> argv;
  int cpu = -1;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool ParseFlag(const std::string& arg, const char* name, long* value) {
  std::string prefix = std::string("--") + name + "=";
  if (arg.rfind(prefix, 0) != 0) return false;
  char* end;
  *value = strtol(arg.c_str() + prefix.size(), &end, 10);
  if (*end || *value <= 0) {
    fprintf(stderr, "trap_ladder: %s wants a positive number\n", prefix.c_str());
    exit(2);
  }
  return true;
}

[[noreturn]] void Die(const std::string& message) {
  fprintf(stderr, "trap_ladder: %s\n", message.c_str());
  exit(1);
}

double NsPerCall(const Rung& rung) {
  auto r = RunProcess(rung.argv, rung.cpu);
  if (!r) Die(rung.name + ": " + r.error());
  double ns;
  if (r->status != 0 || sscanf(r->out.c_str(), "ns_per_call %lf", &ns) != 1) {
    Die(rung.name + " failed (status " + std::to_string(r->status) + "): " + r->err + r->out);
  }
  return ns;
}

// Peak RSS of the sentry serving a guest with `threads` threads.
double SentryPeakKb(const std::string& snare, const std::string& guest, long threads,
                    const std::string& stats_file, long* tasks) {
  auto r = RunProcess({snare, "run", "--stats=json", "--stats-file=" + stats_file, "--", guest,
                       std::to_string(threads)});
  if (!r || r->status != 0) Die("many_threads under snare failed: " + (r ? r->err : r.error()));
  FILE* f = fopen(stats_file.c_str(), "r");
  if (!f) Die("no stats file from snare");
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  fclose(f);
  if (j.is_discarded() || !j.contains("sentry")) Die("unreadable stats file from snare");
  *tasks = j["sentry"]["peak_tasks"].get<long>();
  return j["sentry"]["peak_rss_kb"].get<double>();
}

}  // namespace

int main(int argc, char** argv) {
  long reps = 7, calls = 200000, threads = 200;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (ParseFlag(a, "reps", &reps) || ParseFlag(a, "calls", &calls) ||
        ParseFlag(a, "threads", &threads)) {
      continue;
    }
    if (a.rfind("--json=", 0) == 0) {
      json_path = a.substr(7);
      if (auto ok = snare::CheckWritableDirectory(json_path); !ok) Die(ok.error());
      continue;
    }
    Die("unknown argument '" + a + "' (--reps=N --calls=N --threads=N --json=FILE)");
  }
  const std::string snare = snare::bench::Runfile(argv[0], "sentry/snare");
  const std::string loop = snare::bench::Runfile(argv[0], "bench/trap_loop");
  const std::string many = snare::bench::Runfile(argv[0], "bench/many_threads");
  const std::string n = std::to_string(calls);

  const std::vector<Rung> rungs = {
      {"native", "syscall(SYS_getppid)", {loop, "native", n}},
      {"filter-allow", "through a seccomp filter that allows it", {loop, "allow", n}},
      {"filter-errno", "a filter that returns ERRNO", {loop, "errno", n}},
      {"signal-floor", "RET_TRAP -> SIGSYS -> empty handler", {loop, "sigsys", n}},
      {"inproc", "snare inproc", {snare, "run", "--platform=inproc", "--", loop, "native", n}},
      {"systrap", "snare systrap (spin, then futex)",
       {snare, "run", "--platform=systrap", "--", loop, "native", n}},
      {"systrap-futex", "snare systrap, futex only",
       {snare, "run", "--platform=systrap", "--spin=0", "--", loop, "native", n}},
      {"systrap-1cpu", "snare systrap, guest and sentry on one CPU (futex only)",
       {snare, "run", "--platform=systrap", "--spin=0", "--", loop, "native", n}, 0},
  };
  std::map<std::string, std::vector<double>> samples;
  for (long rep = 0; rep < reps; ++rep) {
    fprintf(stderr, "\rtrap_ladder: repetition %ld/%ld", rep + 1, reps);
    for (const auto& rung : rungs) samples[rung.name].push_back(NsPerCall(rung));
  }
  fprintf(stderr, "\n");

  const double native = Median(samples["native"]);
  const double floor = Median(samples["signal-floor"]);
  nlohmann::json out;
  printf("getppid, median of %ld interleaved repetitions x %ld calls\n\n", reps, calls);
  printf("| rung | what | ns/call | x native | x signal floor |\n");
  printf("| --- | --- | ---: | ---: | ---: |\n");
  for (const auto& rung : rungs) {
    double m = Median(samples[rung.name]);
    printf("| %s | %s | %.0f | %.2f | %.2f |\n", rung.name.c_str(), rung.what.c_str(), m,
           m / native, m / floor);
    out["ladder"].push_back({{"rung", rung.name},
                             {"ns_per_call", m},
                             {"ratio_native", m / native},
                             {"ratio_signal_floor", m / floor},
                             {"samples", samples[rung.name]}});
  }

  // Sentry memory per guest thread: peak RSS with `threads` threads minus with one.
  std::string stats_file = "/tmp/snare-trap-ladder-" + std::to_string(getpid()) + ".json";
  std::vector<double> per_thread;
  long tasks = 0;
  for (int i = 0; i < 3; ++i) {
    long one_tasks;
    double one = SentryPeakKb(snare, many, 1, stats_file, &one_tasks);
    double many_kb = SentryPeakKb(snare, many, threads, stats_file, &tasks);
    per_thread.push_back((many_kb - one) / static_cast<double>(threads - 1) * 1024.0);
  }
  unlink(stats_file.c_str());
  double bytes = Median(per_thread);
  printf("\nsentry memory per guest thread (systrap, %ld-thread guest, %ld tasks at once): "
         "%.1f KiB\n", threads, tasks, bytes / 1024);
  out["memory"] = {{"threads", threads}, {"peak_tasks", tasks}, {"bytes_per_thread", bytes}};
  out["calls"] = calls;
  out["reps"] = reps;
  if (!json_path.empty()) {
    if (auto ok = snare::WriteFileAtomically(json_path, out.dump(2) + "\n"); !ok) Die(ok.error());
  }
  return 0;
}
