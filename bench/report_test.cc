#include "bench/report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;

namespace fs = std::filesystem;

// A run shaped like the measurements in shared/notes/measured-here.md.
BenchRun SampleRun() {
  BenchRun run;
  run.id = 12;
  run.started_at = "2026-11-29T10:00:00Z";
  run.kernel = "6.1.0-28-amd64";
  run.kernel_variant = "host";
  run.cpu_model = "Intel(R) Xeon(R) CPU @ 2.20GHz";
  run.cores = 2;
  run.revision = "0123abcd";
  run.command = "snare bench --quick";
  run.quick = true;
  run.duration_s = 95.25;
  auto add = [&](std::string suite, std::string name, std::string platform,
                 std::map<std::string, std::string> params, double value, std::string unit) {
    run.rows.push_back({suite, name, platform, params, value, unit, {value, value}});
  };
  const std::map<std::string, std::string> getppid = {{"syscall", "getppid"}};
  add("ladder", "native", "native", getppid, 60, "ns/call");
  add("ladder", "filter-allow", "native", getppid, 75, "ns/call");
  add("ladder", "signal-floor", "native", getppid, 950, "ns/call");
  add("ladder", "inproc", "inproc", getppid, 1900, "ns/call");
  add("ladder", "systrap", "systrap", getppid, 5700, "ns/call");
  add("ladder", "native", "native", {{"syscall", "openat"}}, 200, "ns/call");
  add("ladder", "systrap", "systrap", {{"syscall", "openat"}}, 6000, "ns/call");
  for (int d : {0, 8, 16, 32}) {
    std::map<std::string, std::string> params = {{"depth", std::to_string(d)}};
    if (d == 8) params["caller_depth"] = "8";
    add("depth", "depth-" + std::to_string(d), "native", params, 930 + 19 * d, "ns/trap");
  }
  const std::vector<std::tuple<std::string, double, double>> modes = {
      {"same-ns", 1.06e6, 0.87e6},
      {"sibling-ns", 1.04e6, 0.88e6},
      {"distinct-uid", 1.06e6, 0.93e6}};
  for (const auto& [mode, alone, two] : modes) {
    add("contention", mode, "native", {{"mode", mode}, {"tasks", "1"}}, alone, "traps/s");
    add("contention", mode, "native", {{"mode", mode}, {"tasks", "2"}}, two, "traps/s");
  }
  add("workload", "kbuild", "native", {{"tasks", "4"}}, 10000, "ms");
  add("workload", "kbuild", "inproc", {{"tasks", "4"}}, 10500, "ms");
  add("workload", "kbuild", "systrap", {{"tasks", "4"}}, 12000, "ms");
  add("workload", "nginx", "native", {{"tasks", "8"}}, 50000, "ops/s/task");
  add("workload", "nginx", "systrap", {{"tasks", "8"}}, 40000, "ops/s/task");
  add("peer", "getppid", "native", {}, 60, "ns/call");
  add("peer", "getppid", "systrap", {}, 5700, "ns/call");
  add("peer", "getppid", "runsc-ptrace", {}, 68900, "ns/call");
  add("peer", "getppid", "proot", {}, 83900, "ns/call");
  add("peer", "getppid", "strace", {}, 111000, "ns/call");
  return run;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_TRUE(Contains(text, part)) << "missing: " << (part) << "\nin:\n" << (text)

TEST(RenderMarkdownTest, HeaderDescribesTheRun) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_EQ(md.rfind("# snare bench run 12\n", 0), 0u) << md;
  EXPECT_CONTAINS(md, "- date: 2026-11-29T10:00:00Z\n");
  EXPECT_CONTAINS(md, "- kernel: 6.1.0-28-amd64 (host)\n");
  EXPECT_CONTAINS(md, "- CPU: Intel(R) Xeon(R) CPU @ 2.20GHz\n");
  EXPECT_CONTAINS(md, "- cores: 2\n");
  EXPECT_CONTAINS(md, "- revision: 0123abcd\n");
  EXPECT_CONTAINS(md, "- command: `snare bench --quick`\n");
  EXPECT_CONTAINS(md, "- duration: 95.2 s (quick run");
}

TEST(RenderMarkdownTest, LadderRatiosArePerSyscall) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_CONTAINS(md,
                  "### getppid\n\n| rung | platform | ns/call | x native | x signal floor |\n"
                  "| --- | --- | ---: | ---: | ---: |\n"
                  "| native | native | 60.0 | 1.00 | 0.06 |\n");
  EXPECT_CONTAINS(md, "| signal-floor | native | 950 | 15.8 | 1.00 |\n");
  EXPECT_CONTAINS(md, "| inproc | inproc | 1,900 | 31.7 | 2.00 |\n");
  EXPECT_CONTAINS(md, "| systrap | systrap | 5,700 | 95.0 | 6.00 |\n");
  // openat has its own native row and no signal-floor row: that ratio stays blank.
  EXPECT_CONTAINS(md, "### openat\n");
  EXPECT_CONTAINS(md, "| systrap | systrap | 6,000 | 30.0 | |\n");
  // Without a handoff-floor row there is no least cost to show.
  EXPECT_FALSE(Contains(md, "systrap's least here")) << md;
}

TEST(RenderMarkdownTest, LadderShowsSystrapsLeastCostFromTheHandoffFloor) {
  BenchRun run = SampleRun();
  run.rows.push_back(
      {"ladder", "handoff-floor", "native", {{"syscall", "getppid"}}, 740, "ns/call", {740}});
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md, "| handoff-floor | native | 740 | 12.3 | 0.78 |\n");
  // 950 + 60 + 740 = 1,750 ns, 1.84 x 950; systrap's 5,700 is 3,950 above it.
  EXPECT_CONTAINS(md,
                  "systrap's least here: the signal floor, the call itself (native) and one "
                  "handoff floor make 1,750 ns (1.84 x signal floor); systrap took 5,700 ns, "
                  "3,950 ns above it.\n");
  // Only under getppid's table: openat has no handoff row.
  EXPECT_EQ(md.find("systrap's least here"), md.rfind("systrap's least here"));
}

TEST(RenderMarkdownTest, DepthShowsSlopeCiAndUcountShare) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_CONTAINS(md,
                  "| depth | ns/trap |\n| ---: | ---: |\n| 0 | 930 |\n| 8 | 1,082 |\n"
                  "| 16 | 1,234 |\n| 32 | 1,538 |\n");
  EXPECT_CONTAINS(md,
                  "Slope: 19.0 ns/level (95% CI 19.0 to 19.0, t with 2 df over 4 depths), "
                  "intercept 930 ns at depth 0.");
  EXPECT_CONTAINS(md, "share(d) = slope*d / (intercept + slope*d)");
  // 19 / (930 + 19) = 2.0%; 152 / (930 + 152) = 14.0%.
  EXPECT_CONTAINS(md, "2.0% at d = 1, 14.0% at d = 8 (the caller's depth).");
}

TEST(RenderMarkdownTest, DepthWithTwoPointsHasNoInterval) {
  BenchRun run;
  run.rows = {{"depth", "d0", "native", {{"depth", "0"}}, 900, "ns/trap", {}},
              {"depth", "d8", "native", {{"depth", "8"}}, 1060, "ns/trap", {}}};
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md, "Slope: 20.0 ns/level (no 95% CI: it needs at least 3 depths)");
  EXPECT_FALSE(Contains(md, "caller's depth")) << md;
  run.rows.pop_back();
  EXPECT_CONTAINS(RenderMarkdown(run), "Slope: not fitted (line fit: need at least 2 points");
}

TEST(RenderMarkdownTest, ContentionIsTasksByMode) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_CONTAINS(md,
                  "| tasks | same-ns | sibling-ns | distinct-uid |\n"
                  "| ---: | ---: | ---: | ---: |\n"
                  "| 1 | 1.06 M | 1.04 M | 1.06 M |\n"
                  "| 2 | 0.87 M | 0.88 M | 0.93 M |\n");
}

TEST(RenderMarkdownTest, WorkloadShowsUnitsAndTheSystrapRatio) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_CONTAINS(md, "| workload | tasks | native | inproc | systrap | systrap/native |\n");
  EXPECT_CONTAINS(md, "| kbuild | 4 | 10,000 ms | 10,500 ms | 12,000 ms | 1.20 |\n");
  EXPECT_CONTAINS(md, "| nginx | 8 | 50,000 ops/s/task | | 40,000 ops/s/task | 0.80 |\n");
}

TEST(RenderMarkdownTest, PeerComparesEachPeerWithSnare) {
  const std::string md = RenderMarkdown(SampleRun());
  EXPECT_CONTAINS(md, "Values in ns/call.\n");
  EXPECT_CONTAINS(md,
                  "| subject | native | snare systrap | runsc-ptrace | proot | strace -f | "
                  "peer/snare ratios |\n");
  EXPECT_CONTAINS(md,
                  "| getppid | 60.0 | 5,700 | 68,900 | 83,900 | 111,000 | "
                  "runsc-ptrace 12.1x, proot 14.7x, strace -f 19.5x |\n");
}

TEST(RenderMarkdownTest, StressShowsExitStatusesRatesAndRatios) {
  BenchRun run;
  run.rows.push_back({"stress", "fork", "native", {{"exit_status", "0"}}, 1000, "bogo-ops/s", {}});
  run.rows.push_back({"stress", "fork", "systrap", {{"exit_status", "0"}}, 250, "bogo-ops/s", {}});
  run.rows.push_back({"stress", "fork", "inproc", {{"exit_status", "2"}}, 500, "bogo-ops/s", {}});
  run.rows.push_back(
      {"stress", "fork", "systrap-patch", {{"exit_status", "0"}}, 400, "bogo-ops/s", {}});
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md, "\n## stress\n");
  EXPECT_CONTAINS(md,
                  "| stressor | exit (native/systrap/inproc/patch) | native bogo ops/s | systrap "
                  "bogo ops/s | inproc bogo ops/s | systrap-patch bogo ops/s | systrap/native | "
                  "inproc/native | patch/native |\n");
  EXPECT_CONTAINS(md, "| fork | 0/0/2/0 | 1,000 | 250 | 500 | 400 | 0.25 | 0.50 | 0.40 |\n");
}

TEST(RenderMarkdownTest, CrowdedShowsEachProgramNativelyAndUnderSnareWithItsHogs) {
  BenchRun run;
  run.rows.push_back({"crowded", "find", "native", {{"hogs", "2"}}, 90, "ms", {90}});
  run.rows.push_back({"crowded", "find", "systrap-patch", {{"hogs", "2"}}, 135, "ms", {135}});
  run.rows.push_back({"crowded", "python3 -c pass", "native", {{"hogs", "2"}}, 60, "ms", {60}});
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md, "\n## crowded\n\nWall ms with 2 CPU hogs");
  EXPECT_CONTAINS(md, "| program | native | snare | snare/native |\n");
  EXPECT_CONTAINS(md, "| find | 90.0 | 135 | 1.50 |\n");
  EXPECT_CONTAINS(md, "| python3 -c pass | 60.0 |");  // no snare row: no ratio
}

TEST(RenderMarkdownTest, ProgramsShowRatiosTrapCountsAndTheSignalShare) {
  BenchRun run = SampleRun();  // its ladder: getppid native 60, signal floor 950 ns
  const std::map<std::string, std::string> stats = {{"trapped_calls", "2000"},
                                                    {"trap_ns_per_call", "500"},
                                                    {"sentry_cpu_per_guest_cpu", "0.9"},
                                                    {"guest_threads", "3"}};
  run.rows.push_back({"programs", "find", "native", {{"cpu_ms", "9.5"}}, 10, "ms", {10}});
  run.rows.push_back({"programs", "find", "inproc", stats, 15, "ms", {15}});
  run.rows.push_back({"programs", "find", "systrap", stats, 20, "ms", {20}});
  run.rows.push_back(
      {"programs",
       "find",
       "systrap-patch",
       {{"trapped_calls", "2000"}, {"patched_calls", "1500"}, {"first_call_ms", "6.5"}},
       16,
       "ms",
       {16}});
  run.rows.push_back({"programs", "find", "proot", {}, 400, "ms", {400}});
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md,
                  "| program (ms) | native | inproc | snare systrap | systrap --patch | proot | "
                  "systrap/native | patch/native | inproc/native | native CPU (ms) | first call "
                  "(ms) | trapped calls | calls/s "
                  "(systrap) | guest threads | stub trap ns/call | overhead ns/call | patched | "
                  "sentry CPU/guest "
                  "CPU | in signal delivery | patching removed | reserve kernel removes |\n");
  // 2,000 calls in 20 ms; (20 - 10) ms over 2,000 calls; 2,000 x 890 ns of 20 ms; 1,500 of
  // 2,000 calls patched; 16 ms of 20 with --patch.
  EXPECT_CONTAINS(
      md,
      "| find | 10.0 | 15.0 | 20.0 | 16.0 | 400 | 2.00 | 1.60 | 1.50 | 9.50 | 6.50 | 2,000 | "
      "100,000 "
      "| 3 | 500 | 5,000 | 75.0% | 0.90 | 8.9% | 20.0% | |\n");
  EXPECT_CONTAINS(md, "x 890 ns (the ladder's signal floor - native)");

  // With the lab's saving: a quarter of each trap's signal delivery.
  run.rows.push_back({"lab-saving",
                      "reserve-kernel",
                      "native",
                      {{"depth", "1"}, {"stock_run", "7"}, {"reserve_run", "8"}},
                      0.25,
                      "fraction",
                      {0.25}});
  const std::string with_lab = RenderMarkdown(run);
  EXPECT_CONTAINS(with_lab, "| 75.0% | 0.90 | 8.9% | 20.0% | 2.2% |\n");
  EXPECT_CONTAINS(with_lab, "in signal delivery x 25.0%");
  EXPECT_CONTAINS(with_lab,
                  "depth 1 on the kernel lab's stock and reserve kernels (lab runs 7 and 8");
}

TEST(RenderMarkdownTest, ProgramsSetTheBusyNeighboursShareApart) {
  BenchRun run = SampleRun();
  // Two rounds: the ratios are the medians of each round's own ratio.
  run.rows.push_back({"programs", "python", "native", {}, 20, "ms", {20, 30}});
  run.rows.push_back({"programs", "python", "native-busy", {}, 25, "ms", {25, 36}});
  run.rows.push_back({"programs", "python", "systrap", {}, 32, "ms", {32, 45}});
  run.rows.push_back({"programs", "python", "systrap-patch", {}, 30, "ms", {30, 45}});
  const std::string md = RenderMarkdown(run);
  EXPECT_CONTAINS(md,
                  "| program (ms) | native | native, busy CPU beside | inproc | snare systrap | "
                  "systrap --patch | systrap/native | patch/native | busy/native | patch/busy | "
                  "inproc/native |");
  // busy/native: 25/20 and 36/30; patch/busy: 30/25 and 45/36; patch/native 1.5 both.
  EXPECT_CONTAINS(md, "| python | 20.0 | 25.0 | | 32.0 | 30.0 | 1.55 | 1.50 | 1.23 | 1.23 | |");
  EXPECT_CONTAINS(md, "busy/native: what that alone costs the program");
}

TEST(RenderMarkdownTest, SuitesComeInOrderAndOnlyWhenPresent) {
  const std::string md = RenderMarkdown(SampleRun());
  size_t last = 0;
  for (const char* suite : {"ladder", "depth", "contention", "workload", "peer"}) {
    size_t at = md.find(std::string("\n## ") + suite + "\n");
    ASSERT_NE(at, std::string::npos) << suite;
    EXPECT_GT(at, last) << suite;
    last = at;
  }
  EXPECT_FALSE(Contains(md, "\n\n\n")) << md;

  BenchRun only_peer;
  only_peer.rows = {{"peer", "a|b", "proot", {}, 5, "ns/call", {}},
                    {"custom", "x", "native", {{"k", "v"}}, 2, "s", {}}};
  const std::string small = RenderMarkdown(only_peer);
  EXPECT_FALSE(Contains(small, "## ladder")) << small;
  EXPECT_CONTAINS(small, "| a\\|b |");  // a pipe in a name does not split the cell
  EXPECT_CONTAINS(small, "## custom\n\n| name | platform | params | value | unit |");
  EXPECT_CONTAINS(small, "| x | native | k=v | 2.00 | s |");
}

TEST(RenderComparisonTest, ListsEveryPointOfEitherRunSideBySide) {
  BenchRun a = SampleRun();
  BenchRun b = SampleRun();
  b.id = 13;
  b.kernel = "6.12.0";
  b.kernel_variant = "reserve";
  b.rows[4].value = 2850;                                                // ladder systrap getppid
  b.rows.pop_back();                                                     // peer strace: only in A
  b.rows.push_back({"other", "x", "native", {{"k", "v"}}, 3, "s", {}});  // only in B

  const std::string md = RenderComparison(a, b);
  EXPECT_CONTAINS(md, "- A: run 12, 2026-11-29T10:00:00Z, kernel 6.1.0-28-amd64 (host)");
  EXPECT_CONTAINS(md, "- B: run 13, 2026-11-29T10:00:00Z, kernel 6.12.0 (reserve)");
  EXPECT_CONTAINS(md, "| suite | point | A | B | B/A |\n| --- | --- | ---: | ---: | ---: |\n");
  EXPECT_CONTAINS(md,
                  "| ladder | systrap (systrap; syscall=getppid) | 5,700 ns/call | "
                  "2,850 ns/call | 0.50 |\n");
  EXPECT_CONTAINS(md,
                  "| ladder | native (native; syscall=openat) | 200 ns/call | 200 ns/call | "
                  "1.00 |\n");
  EXPECT_CONTAINS(md,
                  "| depth | depth-8 (native; caller_depth=8, depth=8) | 1,082 ns/trap | "
                  "1,082 ns/trap | 1.00 |\n");
  EXPECT_CONTAINS(md, "| peer | getppid (strace) | 111,000 ns/call | | |\n");
  EXPECT_CONTAINS(md, "| other | x (native; k=v) | | 3.00 s | |\n");
  // Every point of either run appears once: 28 in A, plus 1 only in B.
  size_t rows = 0;
  for (size_t at = md.find("\n| "); at != std::string::npos; at = md.find("\n| ", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 1 + 29u);  // the header row, then one row per point
}

TEST(RenderJsonTest, HoldsTheWholeRun) {
  BenchRun run = SampleRun();
  run.rows[0].samples = {61, NAN, 59.5};
  const std::string text = RenderJson(run);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << text;
  EXPECT_EQ(j["id"], 12);
  EXPECT_EQ(j["kernel"], "6.1.0-28-amd64");
  EXPECT_EQ(j["kernel_variant"], "host");
  EXPECT_EQ(j["cpu_model"], "Intel(R) Xeon(R) CPU @ 2.20GHz");
  EXPECT_EQ(j["cores"], 2);
  EXPECT_EQ(j["revision"], "0123abcd");
  EXPECT_EQ(j["command"], "snare bench --quick");
  EXPECT_EQ(j["quick"], true);
  EXPECT_EQ(j["duration_s"], 95.25);
  ASSERT_EQ(j["rows"].size(), run.rows.size());
  const auto& first = j["rows"][0];
  EXPECT_EQ(first["suite"], "ladder");
  EXPECT_EQ(first["name"], "native");
  EXPECT_EQ(first["platform"], "native");
  EXPECT_EQ(first["params"]["syscall"], "getppid");
  EXPECT_EQ(first["value"], 60);
  EXPECT_EQ(first["unit"], "ns/call");
  EXPECT_EQ(first["samples"], nlohmann::json::parse("[61, null, 59.5]"));
}

// ---------------------------------------------------------------------------------------
// Plots

std::string TempDir(const std::string& name) {
  const char* tmp = getenv("TEST_TMPDIR");
  std::string dir = std::string(tmp ? tmp : "/tmp") + "/" + name + std::to_string(getpid());
  fs::remove_all(dir);
  return dir;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RenderPlotsTest, WritesPngPlotsForTheSuitesPresent) {
  const std::string dir = TempDir("plots");
  auto written = RenderPlots(SampleRun(), dir, "png");
  if (!written && written.error() == "gnuplot not found: run tools/setup.sh") {
    GTEST_SKIP() << written.error();
  }
  ASSERT_TRUE(written.has_value()) << written.error();
  std::vector<std::string> expected;
  for (const char* plot : {"ladder", "depth", "contention"}) {
    for (const char* ext : {".dat", ".gp", ".png"}) expected.push_back(dir + "/" + plot + ext);
  }
  EXPECT_EQ(*written, expected);
  for (const char* plot : {"ladder", "depth", "contention"}) {
    const std::string bytes = ReadBytes(dir + "/" + plot + ".png");
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << plot;
    EXPECT_GT(bytes.size(), 1000u) << plot;
  }
  // Nothing half-written is left behind.
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_FALSE(Contains(entry.path().filename().string(), ".tmp")) << entry.path();
  }
  // The fitted line is drawn from the same fit as the Markdown report.
  EXPECT_CONTAINS(ReadBytes(dir + "/depth.gp"), "19*x + 930 with lines");
}

TEST(RenderPlotsTest, WritesSvgAndOnlyThePlotsItHasDataFor) {
  BenchRun run = SampleRun();
  std::erase_if(run.rows, [](const BenchRow& row) { return row.suite != "depth"; });
  const std::string dir = TempDir("svg");
  auto written = RenderPlots(run, dir, "svg");
  if (!written && written.error() == "gnuplot not found: run tools/setup.sh") {
    GTEST_SKIP() << written.error();
  }
  ASSERT_TRUE(written.has_value()) << written.error();
  ASSERT_EQ(written->size(), 3u);
  EXPECT_EQ(written->back(), dir + "/depth.svg");
  EXPECT_CONTAINS(ReadBytes(dir + "/depth.svg"), "<svg");
  EXPECT_FALSE(fs::exists(dir + "/ladder.svg"));
}

TEST(RenderPlotsTest, NothingToPlotWritesNothing) {
  BenchRun run;
  run.rows = {{"peer", "getppid", "proot", {}, 83900, "ns/call", {}}};
  const std::string dir = TempDir("none");
  auto written = RenderPlots(run, dir, "png");
  ASSERT_TRUE(written.has_value()) << written.error();
  EXPECT_TRUE(written->empty());
  EXPECT_FALSE(fs::exists(dir));
}

TEST(RenderPlotsTest, RejectsAnUnknownFormat) {
  auto written = RenderPlots(SampleRun(), TempDir("bad"), "gif");
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error(), "unknown plot format 'gif': use png or svg");
}

TEST(RenderPlotsTest, SaysHowToGetGnuplotWhenItIsMissing) {
  const char* old_path = getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  const std::string empty = TempDir("emptybin");
  fs::create_directories(empty);
  setenv("PATH", empty.c_str(), 1);
  auto written = RenderPlots(SampleRun(), TempDir("nognuplot"), "png");
  if (old_path) {
    setenv("PATH", saved.c_str(), 1);
  } else {
    unsetenv("PATH");
  }
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error(), "gnuplot not found: run tools/setup.sh");
}

}  // namespace
}  // namespace snare::bench
