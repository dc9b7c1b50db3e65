// Real programs, each natively, natively beside a busy CPU (BusyCpu), under inproc, systrap and
// systrap with --patch (the trace profile, with --stats to a file) and under the peers. The row's
// value is the wall time; under snare the params hold what the run's stats said: the trapped calls
// (the sentry's count under systrap), the stub's mean trap cost, the most guest threads the sentry
// served at once and the sentry's CPU per guest CPU second; on every platform, the CPU time the run
// took.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench/busy_cpu.h"
#include "bench/peer_tools.h"
#include "bench/program_fixtures.h"
#include "bench/suites.h"
#include "util/cpu_time.h"

namespace snare::bench {
namespace {

struct Program {
  std::string name;
  std::vector<std::string> argv;
  bool discard_stdout = false;
};

// Reads what `snare run --stats=json` wrote into the step's figures.
std::expected<void, std::string> RecordStats(const std::string& path, const std::string& platform,
                                             std::map<std::string, std::vector<double>>* figures) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(
      std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), nullptr,
      /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.contains("total")) {
    return std::unexpected("no stats in " + path);
  }
  const nlohmann::json& total = j["total"];
  // Every call snare interposed on: the sentry's count, and those a patched site ran in the stub
  // (the policy passes them; the sentry never saw them).
  const char* calls = platform == "inproc" ? "calls" : "sentry_calls";
  (*figures)["trapped_calls"].push_back(total.value(calls, 0.0) +
                                        total.value("in_stub_calls", 0.0));
  (*figures)["trap_ns_per_call"].push_back(total.value("trap_ns_per_call", 0.0));
  (*figures)["patched_calls"].push_back(total.value("patched_calls", 0.0));
  if (j.contains("sentry")) {
    const nlohmann::json& sentry = j["sentry"];
    (*figures)["sentry_cpu_per_guest_cpu"].push_back(sentry.value("cpu_per_guest_cpu", 0.0));
    // Where more guest threads than CPUs trap, each waits its turn for a CPU inside the trap,
    // and the stub's mean counts that wait (inproc has no sentry serving threads).
    if (platform != "inproc" && sentry.contains("peak_tasks")) {
      (*figures)["guest_threads"].push_back(sentry.value("peak_tasks", 0.0));
    }
    if (sentry.contains("first_call_ms")) {
      (*figures)["first_call_ms"].push_back(sentry.value("first_call_ms", 0.0));
    }
  }
  return {};
}

}  // namespace

void AddProgramSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  const bool quick = context.options().quick;
  const std::string dir = context.ScratchDir() + "/programs";
  const int files = quick ? 200 : 2000, repo_files = quick ? 500 : 5000;
  const int rows = quick ? 1000 : 10000, spawns = quick ? 10 : 50;
  const std::string tree = dir + "/tree", repo = dir + "/repo", sql = dir + "/inserts.sql";
  const std::string db = dir + "/bench.db", source = dir + "/prog.c";
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  for (auto made : {MakeFileTree(tree, files), MakeGitRepository(repo, repo_files),
                    WriteSqlInserts(sql, rows), WriteCSource(source, 200)}) {
    if (!made) {
      context.Note("programs skipped: cannot make the fixtures: " + made.error());
      return;
    }
  }
  const std::string python = "/usr/bin/python3";
  std::vector<Program> programs = {
      {"python3 -c pass", {python, "-c", "pass"}},
      {"find /usr/include -name '*.h'", {"find", "/usr/include", "-name", "*.h"}, true},
      {"python3: stat+read " + std::to_string(files) + " files",
       {python, "-c",
        "import os,sys\n"
        "n=0\n"
        "for root,dirs,names in os.walk(sys.argv[1]):\n"
        "  for f in names:\n"
        "    p=os.path.join(root,f); os.stat(p); n+=len(open(p,'rb').read())\n"
        "print(n)",
        tree}},
      // Process creation as test runners and build tools do it: Python's subprocess starts each
      // child with vfork, glibc's posix_spawn with clone(CLONE_VM | CLONE_VFORK).
      {"python3: " + std::to_string(spawns) + " subprocesses",
       {python, "-c",
        "import subprocess,sys\n"
        "for _ in range(int(sys.argv[1])): subprocess.run(['/bin/true'], check=True)",
        std::to_string(spawns)}},
      {"git status (" + std::to_string(repo_files) + " files)",
       {"git", "-C", repo, "status", "--porcelain"}},
      {"sqlite3: " + std::to_string(rows) + " one-row transactions",
       {"sqlite3", db, ".read " + sql}},
      {"gcc -O2 -c (200 lines)", {"gcc", "-O2", "-c", "-o", dir + "/prog.o", source}},
  };
  if (!quick) {
    programs.insert(programs.begin() + 5,
                    {"tar cf - /usr/include", {"tar", "cf", "-", "/usr/include"}, true});
  }
  struct Platform {
    std::string name;
    std::vector<std::string> prefix;  // empty: snare itself
  };
  std::vector<Platform> platforms = {
      {"native", {}}, {"native-busy", {}}, {"inproc", {}}, {"systrap", {}}, {"systrap-patch", {}}};
  if (!quick) {
    for (const PeerTool& peer : AvailablePeerTools(context)) {
      platforms.push_back({peer.platform, peer.prefix});
    }
  }
  context.Note(
      "programs: sqlite3 runs with PRAGMA synchronous=OFF (the disk's fsync would "
      "dominate otherwise); snare runs with --stats=json to a file in memory (/dev/shm where "
      "there is one: the file's fsync is the instrument's, not the program's)");
  int index = 0;
  for (const Program& program : programs) {
    for (const Platform& platform : platforms) {
      std::vector<std::string> argv = program.argv;
      const bool snare = platform.prefix.empty() && !platform.name.starts_with("native");
      const std::string stats =
          context.MemoryScratchDir() + "/stats-" + std::to_string(index++) + ".json";
      if (snare) {
        std::vector<std::string> flags = {"--stats=json", "--stats-file=" + stats};
        if (platform.name == "systrap-patch") flags.push_back("--patch");
        argv = context.UnderSnare(platform.name == "inproc" ? "inproc" : "systrap", flags, argv);
      } else if (!platform.prefix.empty()) {
        argv.insert(argv.begin(), platform.prefix.begin(), platform.prefix.end());
      }
      BenchStep step;
      step.label = "programs " + program.name + " " + platform.name;
      step.figures = std::make_shared<std::map<std::string, std::vector<double>>>();
      auto figures = step.figures;
      const bool discard = program.discard_stdout;
      const std::string name = platform.name;
      step.measure = [argv, discard, snare, stats, name,
                      figures]() -> std::expected<std::vector<double>, std::string> {
        // Native runs first in each program's group. Minutes pass between a program's groups,
        // and a kernel that pages out memory left cold meanwhile (DAMON's pageout scheme, on
        // these machines; buff/cache stays under 0.5 GB of 24) drops its files from the page
        // cache: that run alone would read them from disk (find: 155 ms for 45). An untimed
        // run first warms the cache, as the runs before them do for the other platforms.
        if (name == "native") (void)BenchContext::RunTimed(argv, false);
        // The CPU the run took (the program, and under snare the sentry too), beside its wall
        // time: a native wall far above it waited on something other than its own work.
        const double cpu0 = util::ChildrenCpuSeconds();
        // Native, with a CPU kept busy beside it as a spinning sentry keeps one.
        std::optional<BusyCpu> busy;
        if (name == "native-busy") busy.emplace();
        auto ms = BenchContext::RunTimed(argv, !discard);
        busy.reset();
        if (!ms) return std::unexpected(ms.error());
        (*figures)["cpu_ms"].push_back((util::ChildrenCpuSeconds() - cpu0) * 1e3);
        if (snare) {
          if (auto r = RecordStats(stats, name, figures.get()); !r)
            return std::unexpected(r.error());
        }
        return std::vector<double>{*ms};
      };
      step.row = {"programs", program.name, platform.name, {}, 0, "ms", {}};
      if (snare) step.row.params["profile"] = BenchContext::ProfileOf({});
      step.max_reps = quick ? 3 : 7;
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
