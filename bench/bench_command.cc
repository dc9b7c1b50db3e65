#include "bench/bench_command.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "bench/bench_options.h"
#include "bench/bench_result.h"
#include "bench/machine_info.h"
#include "bench/process_runner.h"
#include "bench/report.h"
#include "bench/results_store.h"
#include "bench/workload_command.h"
#include "sentry/monotonic_clock.h"

namespace snare::bench {
namespace {

std::string SelfPath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "snare";
  return std::string(buf, static_cast<size_t>(n));
}

bool Installed(const std::string& tool) {
  for (const char* dir : {"/usr/local/bin/", "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"}) {
    if (access((dir + tool).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// One measured point: a label, a command and how to read a sample out of its result.
struct Step {
  std::string label;
  std::function<std::expected<std::vector<double>, std::string>()> measure;
  BenchRow row;            // without value/samples
  int max_reps = 1 << 30;  // long real workloads run in fewer rounds
};

class BenchRunner {
 public:
  explicit BenchRunner(const BenchOptions& options)
      : o_(options), self_(SelfPath()), tty_(isatty(2)) {
    long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    max_tasks_ = o_.max_tasks ? o_.max_tasks : static_cast<int>(cpus);
  }

  std::expected<std::vector<BenchRow>, std::string> Run() {
    if (o_.suites.count("ladder")) AddLadder();
    if (o_.suites.count("depth")) AddDepth();
    if (o_.suites.count("contention")) AddContention();
    if (o_.suites.count("workloads")) AddWorkloads();
    if (o_.suites.count("peers")) AddPeers();
    if (o_.suites.count("memory")) AddMemory();
    // Repetitions interleave: every point once per round.
    std::map<size_t, std::vector<double>> samples;
    size_t done = 0, total = 0;
    for (const Step& s : steps_) total += static_cast<size_t>(std::min(o_.reps, s.max_reps));
    for (int rep = 0; rep < o_.reps; ++rep) {
      for (size_t i = 0; i < steps_.size(); ++i) {
        if (rep >= steps_[i].max_reps) continue;
        Progress(++done, total, steps_[i].label);
        auto got = steps_[i].measure();
        if (!got) return std::unexpected(steps_[i].label + ": " + got.error());
        samples[i].insert(samples[i].end(), got->begin(), got->end());
      }
    }
    if (tty_) fprintf(stderr, "\n");
    std::vector<BenchRow> rows;
    for (size_t i = 0; i < steps_.size(); ++i) {
      BenchRow row = steps_[i].row;
      row.samples = samples[i];
      row.value = Median(row.samples);
      rows.push_back(std::move(row));
    }
    return rows;
  }

  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void Progress(size_t i, size_t n, const std::string& label) {
    if (tty_) {
      fprintf(stderr, "\r\033[Ksnare bench: %zu/%zu %s", i, n, label.c_str());
    } else if (i == 1 || i == n || i % 10 == 0) {
      fprintf(stderr, "snare bench: %zu/%zu %s\n", i, n, label.c_str());
    }
  }

  std::vector<std::string> Workload(std::vector<std::string> args) const {
    std::vector<std::string> argv = {self_, kWorkloadCommand};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }

  std::vector<std::string> UnderSnare(const std::string& platform,
                                      const std::vector<std::string>& flags,
                                      const std::vector<std::string>& argv) const {
    std::vector<std::string> out = {self_, "run", "--platform=" + platform};
    out.insert(out.end(), flags.begin(), flags.end());
    out.push_back("--");
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
  }

  static std::expected<nlohmann::json, std::string> RunJson(const std::vector<std::string>& argv,
                                                            int cpu = -1) {
    auto r = RunProcess(argv, cpu);
    if (!r) return std::unexpected(r.error());
    if (r->status != 0) {
      return std::unexpected("exited with status " + std::to_string(r->status) + ": " + r->err);
    }
    size_t last = r->out.find_last_of('{');
    if (last == std::string::npos) return std::unexpected("no result in output: " + r->out);
    auto j = nlohmann::json::parse(r->out.substr(last), nullptr, false);
    if (j.is_discarded()) return std::unexpected("unreadable result: " + r->out);
    return j;
  }

  void AddLadder() {
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
        {"inproc", "inproc", "native", {}, -1},
        {"systrap", "systrap", "native", {}, -1},
        {"systrap-futex", "systrap", "native", {"--spin=0"}, -1},
        {"systrap-1cpu", "systrap", "native", {"--spin=0"}, 0},
    };
    for (const std::string subject : {"getppid", "read4k", "openat-close"}) {
      if (!o_.subjects.count(subject)) continue;
      long calls = o_.quick ? (subject == "getppid" ? 20000 : 10000) : 200000;
      for (const Rung& rung : rungs) {
        if (!o_.rungs.count(rung.name)) continue;
        // The slow rungs get fewer calls: the same precision in a fraction of the time.
        long n = rung.name == "systrap-futex" || rung.name == "systrap-1cpu" ? calls / 10 : calls;
        std::vector<std::string> argv =
            Workload({"trap-loop", rung.mode, subject, std::to_string(n)});
        if (rung.platform != "native") argv = UnderSnare(rung.platform, rung.flags, argv);
        int cpu = rung.cpu;
        Step step;
        step.label = "ladder " + subject + " " + rung.name;
        step.measure = [argv, cpu]() -> std::expected<std::vector<double>, std::string> {
          auto j = RunJson(argv, cpu);
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
        if (!rung.flags.empty()) step.row.params["flags"] = rung.flags[0];
        if (cpu >= 0) step.row.params["cpus"] = "1";
        steps_.push_back(std::move(step));
      }
    }
  }

  // One step per sweep: the workload nests itself and reports every depth; rows per depth
  // are split out after the run (see SplitDepth).
  void AddDepth() {
    long calls = o_.quick ? 10000 : 50000;
    auto argv = Workload({"depth-sweep", std::to_string(o_.max_depth),
                          std::to_string(o_.depth_step), std::to_string(calls)});
    for (int d = 0; d <= o_.max_depth; ++d) {
      if (d % o_.depth_step != 0 && d != o_.max_depth) continue;
      Step step;
      step.label = "depth sweep (signal floor at user-namespace depth " + std::to_string(d) + ")";
      step.measure = [this, argv, d]() -> std::expected<std::vector<double>, std::string> {
        // The first depth of each round runs the sweep; the others read its result.
        if (d == 0) {
          auto j = RunJson(argv);
          if (!j) return std::unexpected(j.error());
          caller_depth_ = (*j)["caller_depth"].get<int>();
          last_sweep_.clear();
          for (const auto& p : (*j)["points"]) last_sweep_[p[0].get<int>()] = p[1].get<double>();
        }
        auto it = last_sweep_.find(d);
        if (it == last_sweep_.end()) return std::unexpected(std::string("sweep gave no point"));
        return std::vector<double>{it->second};
      };
      step.row = {"depth", "signal-floor", "native", {{"depth", std::to_string(d)}},
                  0,       "ns/trap",      {}};
      steps_.push_back(std::move(step));
    }
  }

  void AddContention() {
    double seconds = o_.quick ? 0.25 : 1.0;
    for (int tasks = 1; tasks <= max_tasks_; ++tasks) {
      for (const std::string mode : {"same-ns", "sibling-ns", "distinct-uid"}) {
        if (mode == std::string("distinct-uid") && geteuid() != 0) {
          Note("contention distinct-uid skipped: needs root");
          continue;
        }
        auto argv = Workload({"contention", mode, std::to_string(tasks), Seconds(seconds)});
        Step step;
        step.label = "contention " + mode + " x" + std::to_string(tasks);
        step.measure = [argv]() -> std::expected<std::vector<double>, std::string> {
          auto j = RunJson(argv);
          if (!j) return std::unexpected(j.error());
          return (*j)["per_task"].get<std::vector<double>>();
        };
        step.row = {
            "contention", mode, "native", {{"mode", mode}, {"tasks", std::to_string(tasks)}}, 0,
            "traps/s",    {}};
        steps_.push_back(std::move(step));
      }
    }
  }

  void AddWorkloads() {
    double seconds = o_.quick ? 0.2 : 1.0;
    for (const std::string& name : SeedWorkloadNames()) {
      for (int tasks = 1; tasks <= max_tasks_; ++tasks) {
        for (const std::string platform : {"native", "inproc", "systrap"}) {
          auto argv = Workload({"seed", name, std::to_string(tasks), Seconds(seconds)});
          if (platform != std::string("native")) argv = UnderSnare(platform, {}, argv);
          Step step;
          step.label = "workload " + name + " x" + std::to_string(tasks) + " " + platform;
          step.measure = [argv]() -> std::expected<std::vector<double>, std::string> {
            auto j = RunJson(argv);
            if (!j) return std::unexpected(j.error());
            return (*j)["per_task"].get<std::vector<double>>();
          };
          step.row = {"workload", name,         platform, {{"tasks", std::to_string(tasks)}},
                      0,          "ops/s/task", {}};
          steps_.push_back(std::move(step));
        }
      }
    }
  }

  void AddPeers() {
    struct Peer {
      std::string platform, tool;
      std::vector<std::string> prefix;
    };
    std::vector<Peer> peers = {
        {"native", "", {}},
        {"systrap", "", {self_, "run", "--platform=systrap", "--"}},
        {"runsc-ptrace", "runsc", {"runsc", "--platform=ptrace", "--network=none", "do"}},
        {"proot", "proot", {"proot"}},
        {"strace", "strace", {"strace", "-f", "-o", "/dev/null"}},
    };
    std::vector<Peer> available;
    for (const auto& p : peers) {
      if (!p.tool.empty() && !Installed(p.tool)) {
        Note(p.platform + " skipped: " + p.tool + " is not installed (tools/setup.sh installs it)");
      } else if (p.platform == "runsc-ptrace" && geteuid() != 0) {
        Note("runsc-ptrace skipped: runsc do needs root");
      } else {
        available.push_back(p);
      }
    }
    long calls = o_.quick ? 2000 : 20000;
    struct Subject {
      std::string name;
      std::vector<std::string> argv;
      bool ns_per_call;
    };
    std::vector<Subject> subjects = {
        {"getppid", Workload({"trap-loop", "native", "getppid", std::to_string(calls)}), true}};
    if (!o_.quick) {
      std::string dir = "/tmp/snare-bench-peers-" + std::to_string(getpid());
      mkdir(dir.c_str(), 0755);
      FILE* f = fopen((dir + "/hello.c").c_str(), "w");
      if (f) {
        fputs("#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n", f);
        fclose(f);
      }
      temp_dir_ = dir;
      subjects.push_back({"tar-czf-usr-include",
                          {"/bin/sh", "-c", "tar czf - /usr/include 2>/dev/null | wc -c"},
                          false});
      subjects.push_back({"python3-files",
                          {"/usr/bin/python3", "-c",
                           "import os,tempfile,shutil\n"
                           "d=tempfile.mkdtemp()\n"
                           "for i in range(300): open(f'{d}/{i}','w').write('x'*1000)\n"
                           "print(sum(len(open(f'{d}/{i}').read()) for i in range(300)))\n"
                           "shutil.rmtree(d)"},
                          false});
      subjects.push_back(
          {"gcc-hello", {"/usr/bin/gcc", "-O0", "-o", dir + "/hello", dir + "/hello.c"}, false});
    }
    for (const auto& subject : subjects) {
      for (const auto& peer : available) {
        std::vector<std::string> argv = peer.prefix;
        argv.insert(argv.end(), subject.argv.begin(), subject.argv.end());
        Step step;
        step.label = "peer " + subject.name + " " + peer.platform;
        bool per_call = subject.ns_per_call;
        step.measure = [argv, per_call]() -> std::expected<std::vector<double>, std::string> {
          if (per_call) {
            auto j = RunJson(argv);
            if (!j) return std::unexpected(j.error());
            return std::vector<double>{(*j)["ns_per_call"].get<double>()};
          }
          double t0 = MonotonicSeconds();
          auto r = RunProcess(argv);
          double ms = (MonotonicSeconds() - t0) * 1e3;
          if (!r) return std::unexpected(r.error());
          if (r->status != 0) {
            return std::unexpected("exited with status " + std::to_string(r->status) + ": " +
                                   r->err.substr(0, 500));
          }
          return std::vector<double>{ms};
        };
        step.row = {"peer", subject.name, peer.platform, {}, 0, per_call ? "ns/call" : "ms", {}};
        if (!per_call) step.max_reps = 3;
        steps_.push_back(std::move(step));
      }
    }
  }

  // The sentry's peak RSS serving `threads` guest threads at once, minus serving one,
  // per extra thread.
  void AddMemory() {
    const int threads = 200;
    std::string stats = "/tmp/snare-bench-memory-" + std::to_string(getpid()) + ".json";
    auto peak = [this, stats](int n) -> std::expected<double, std::string> {
      auto r = RunProcess(UnderSnare("systrap", {"--stats=json", "--stats-file=" + stats},
                                     Workload({"threads", std::to_string(n)})));
      if (!r) return std::unexpected(r.error());
      if (r->status != 0) return std::unexpected("threads guest failed: " + r->err);
      FILE* f = fopen(stats.c_str(), "r");
      if (!f) return std::unexpected(std::string("snare wrote no stats file"));
      auto j = nlohmann::json::parse(f, nullptr, false);
      fclose(f);
      unlink(stats.c_str());
      if (j.is_discarded() || !j.contains("sentry"))
        return std::unexpected(std::string("bad stats"));
      return j["sentry"]["peak_rss_kb"].get<double>() * 1024;
    };
    Step step;
    step.label = "memory per guest thread (" + std::to_string(threads) + " threads)";
    step.measure = [peak]() -> std::expected<std::vector<double>, std::string> {
      auto one = peak(1);
      if (!one) return std::unexpected(one.error());
      auto many = peak(threads);
      if (!many) return std::unexpected(many.error());
      return std::vector<double>{(*many - *one) / (threads - 1)};
    };
    step.row = {"memory",  "sentry-bytes-per-guest-thread",
                "systrap", {{"threads", std::to_string(threads)}},
                0,         "bytes",
                {}};
    steps_.push_back(std::move(step));
  }

  static std::string Seconds(double s) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%g", s);
    return buf;
  }

  void Note(const std::string& note) {
    if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
  }

 public:
  ~BenchRunner() {
    if (!temp_dir_.empty()) {
      unlink((temp_dir_ + "/hello.c").c_str());
      unlink((temp_dir_ + "/hello").c_str());
      rmdir(temp_dir_.c_str());
    }
  }
  int caller_depth() const { return caller_depth_; }

 private:
  const BenchOptions& o_;
  std::string self_;
  bool tty_;
  int max_tasks_;
  std::vector<Step> steps_;
  std::vector<std::string> notes_;
  std::map<int, double> last_sweep_;
  int caller_depth_ = 0;
  std::string temp_dir_;
};

}  // namespace

int RunBenchCommand(const std::vector<std::string>& args, const std::string& command_line) {
  auto options = ParseBenchOptions(args);
  if (!options) {
    fprintf(stderr, "snare bench: %s\n%s", options.error().c_str(), kBenchUsage);
    return 2;
  }
  // Open (and check) the store first: a bad --db fails before minutes of measuring.
  std::string db = options->db.empty() ? ResultsStore::DefaultPath() : options->db;
  auto store = ResultsStore::Open(db, /*create=*/true);
  if (!store) {
    fprintf(stderr, "snare bench: %s\n", store.error().c_str());
    return 1;
  }
  BenchRun run;
  DescribeMachine(&run);
  run.command = command_line;
  run.quick = options->quick;
  double t0 = MonotonicSeconds();
  BenchRunner runner(*options);
  auto rows = runner.Run();
  if (!rows) {
    fprintf(stderr, "\nsnare bench: %s (nothing stored)\n", rows.error().c_str());
    return 1;
  }
  run.rows = std::move(*rows);
  for (auto& row : run.rows) {
    if (row.suite == "depth") row.params["caller_depth"] = std::to_string(runner.caller_depth());
  }
  run.duration_s = MonotonicSeconds() - t0;
  auto id = store->Save(run);
  if (!id) {
    fprintf(stderr, "snare bench: %s (nothing stored)\n", id.error().c_str());
    return 1;
  }
  run.id = *id;
  if (options->json) {
    fputs(RenderJson(run).c_str(), stdout);
  } else {
    fputs(RenderMarkdown(run).c_str(), stdout);
    for (const auto& note : runner.notes()) printf("\nnote: %s\n", note.c_str());
    printf("\nstored as run %lld in %s (snare report --db=%s %lld)\n", static_cast<long long>(*id),
           db.c_str(), db.c_str(), static_cast<long long>(*id));
  }
  return 0;
}

}  // namespace snare::bench
