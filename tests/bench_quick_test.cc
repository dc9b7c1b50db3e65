// `snare bench --quick` (what CI runs) stores valid rows for every suite, `snare report`
// reads them back, and bad input fails clearly without touching the database.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

std::string Snare() {
  auto path = SnareBinary();
  EXPECT_TRUE(path.has_value()) << (path ? "" : path.error());
  return path ? *path : "snare";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

util::SubprocessResult RunSnare(std::vector<std::string> args, int timeout_s = 60) {
  args.insert(args.begin(), Snare());
  util::SubprocessOptions options;
  options.timeout = std::chrono::seconds(timeout_s);
  return util::RunSubprocess(args, options);
}

TEST(BenchQuickTest, StoresEverySuiteAndReportsIt) {
  const std::string dir = MakeTempDir("bench");
  const std::string db = dir + "/results.db";
  util::SubprocessResult bench = RunSnare({"bench", "--quick", "--db=" + db}, 600);
  ASSERT_EQ(bench.status, 0) << bench.Describe();
  for (const char* section : {"## ladder", "## depth", "## contention", "## workload", "## peer",
                              "## programs", "## memory", "## stress", "stored as run 1"}) {
    EXPECT_NE(bench.stdout_data.find(section), std::string::npos) << section << "\n"
                                                                  << bench.stdout_data;
  }

  util::SubprocessResult report = RunSnare({"report", "--db=" + db, "--json"});
  ASSERT_EQ(report.status, 0) << report.Describe();
  auto j = nlohmann::json::parse(report.stdout_data, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << report.stdout_data;
  EXPECT_FALSE(j["kernel"].get<std::string>().empty());
  EXPECT_FALSE(j["revision"].get<std::string>().empty());
  EXPECT_GT(j["cores"].get<int>(), 0);
  EXPECT_TRUE(j["quick"].get<bool>());
  std::map<std::string, int> rows_per_suite;
  std::set<std::string> ladder_rungs;
  // Natively, each real program ran alone and beside a busy CPU.
  std::set<std::string> native_programs, busy_programs;
  for (const auto& row : j["rows"]) {
    std::string suite = row["suite"].get<std::string>();
    ++rows_per_suite[suite];
    ASSERT_TRUE(row["value"].is_number()) << row.dump();
    double value = row["value"].get<double>();
    EXPECT_TRUE(std::isfinite(value) && value > 0) << row.dump();
    EXPECT_FALSE(row["samples"].empty()) << row.dump();
    if (suite == "ladder") ladder_rungs.insert(row["name"].get<std::string>());
    if (suite == "programs" && row["platform"] == "native") {
      native_programs.insert(row["name"].get<std::string>());
    }
    if (suite == "programs" && row["platform"] == "native-busy") {
      busy_programs.insert(row["name"].get<std::string>());
    }
  }
  for (const char* suite :
       {"ladder", "depth", "contention", "workload", "peer", "programs", "memory", "stress"}) {
    EXPECT_GT(rows_per_suite[suite], 0) << "no rows for suite " << suite;
  }
  EXPECT_FALSE(native_programs.empty());
  EXPECT_TRUE(native_programs.count("python3: 10 subprocesses")) << "no process-creation program";
  EXPECT_EQ(busy_programs, native_programs);
  // Under snare, each real program's row holds what its --stats said.
  for (const auto& row : j["rows"]) {
    if (row["suite"] != "programs" || row["platform"] == "native" ||
        row["platform"] == "native-busy") {
      continue;
    }
    ASSERT_TRUE(row["params"].contains("trapped_calls")) << row.dump();
    EXPECT_GT(std::stod(row["params"]["trapped_calls"].get<std::string>()), 100) << row.dump();
    EXPECT_TRUE(row["params"].contains("trap_ns_per_call")) << row.dump();
    EXPECT_TRUE(row["params"].contains("sentry_cpu_per_guest_cpu")) << row.dump();
    if (row["platform"] != "inproc") {
      ASSERT_TRUE(row["params"].contains("guest_threads")) << row.dump();
      EXPECT_GE(std::stod(row["params"]["guest_threads"].get<std::string>()), 1) << row.dump();
    }
  }
  for (const char* rung :
       {"native", "filter-allow", "filter-errno", "signal-floor", "inproc", "systrap",
        "systrap-futex", "systrap-1cpu", "systrap-confined", "systrap-notify", "systrap-patch"}) {
    EXPECT_TRUE(ladder_rungs.count(rung)) << "missing rung " << rung;
  }
  // Every snare rung says which profile it measured.
  for (const auto& row : j["rows"]) {
    if (row["suite"] != "ladder" || row["platform"] == "native") continue;
    const std::string name = row["name"].get<std::string>();
    ASSERT_TRUE(row["params"].contains("profile")) << row.dump();
    EXPECT_EQ(row["params"]["profile"], name == "systrap-confined" ? "sandbox" : "trace")
        << row.dump();
  }

  util::SubprocessResult plots = RunSnare({"report", "--db=" + db, "--plots=" + dir + "/plots"});
  ASSERT_EQ(plots.status, 0) << plots.Describe();
  for (const char* plot : {"ladder.png", "depth.png", "contention.png"}) {
    std::string png = ReadFile(dir + "/plots/" + plot);
    ASSERT_GE(png.size(), 8u) << plot;
    EXPECT_EQ(png.substr(1, 3), "PNG") << plot;
  }
}

TEST(BenchQuickTest, BadNamesAndDepthsAreRefusedBeforeMeasuring) {
  const std::string db = MakeTempDir("bench-bad") + "/results.db";
  struct Case {
    std::string arg, message;
  };
  for (const Case& c : {Case{"--rungs=native,bogus", "bogus"}, Case{"--suites=sweeps", "sweeps"},
                        Case{"--syscalls=getpid", "getpid"}, Case{"--max-depth=33", "32"},
                        Case{"--reps=0", "--reps"}, Case{"--frobnicate", "--frobnicate"}}) {
    util::SubprocessResult r = RunSnare({"bench", c.arg, "--db=" + db});
    EXPECT_EQ(r.status, 2) << c.arg << "\n" << r.Describe();
    EXPECT_NE(r.stderr_data.find(c.message), std::string::npos) << r.stderr_data;
  }
  EXPECT_NE(access(db.c_str(), F_OK), 0) << "a refused run created the database";
}

// The cpython suite (not in the default set): one small module natively and on the three
// platforms, its tests counted and compared one by one.
TEST(BenchQuickTest, CpythonSuiteComparesAModuleTestByTest) {
  if (access("/usr/lib/python3.11/test/test_select.py", R_OK) != 0) {
    GTEST_SKIP() << "CPython's regression suite is not installed (tools/setup.sh)";
  }
  const std::string dir = MakeTempDir("bench-cpython");
  util::SubprocessResult bench =
      RunSnare({"bench", "--suites=cpython", "--cpython-modules=test_select",
                "--cpython-logs=" + dir + "/logs", "--db=" + dir + "/results.db", "--json"},
               600);
  ASSERT_EQ(bench.status, 0) << bench.Describe();
  auto j = nlohmann::json::parse(bench.stdout_data, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << bench.stdout_data;
  std::set<std::string> platforms;
  for (const auto& row : j["rows"]) {
    ASSERT_EQ(row["suite"], "cpython") << row.dump();
    EXPECT_EQ(row["name"], "test_select") << row.dump();
    platforms.insert(row["platform"].get<std::string>());
    const auto& params = row["params"];
    ASSERT_TRUE(params.contains("passed")) << row.dump();
    EXPECT_GT(std::stod(params["passed"].get<std::string>()), 0) << row.dump();
    EXPECT_EQ(params["failed"], "0") << row.dump();
    if (row["platform"] != "native") {
      EXPECT_EQ(params["lost"], "0") << row.dump();
      EXPECT_EQ(params["profile"], "sandbox") << row.dump();
    }
  }
  EXPECT_EQ(platforms, (std::set<std::string>{"native", "systrap", "inproc", "systrap-patch"}));
  EXPECT_FALSE(ReadFile(dir + "/logs/test_select-systrap.xml").empty());
  util::SubprocessResult bad = RunSnare(
      {"bench", "--suites=cpython", "--cpython-modules=test_nonesuch", "--db=" + dir + "/x"});
  EXPECT_EQ(bad.status, 2) << bad.Describe();
  EXPECT_NE(bad.stderr_data.find("test_nonesuch"), std::string::npos) << bad.stderr_data;
}

TEST(BenchQuickTest, UnwritableOrCorruptDatabaseIsLeftAlone) {
  util::SubprocessResult unwritable =
      RunSnare({"bench", "--quick", "--db=/proc/self/no/such/results.db"});
  EXPECT_EQ(unwritable.status, 1) << unwritable.Describe();
  EXPECT_NE(unwritable.stderr_data.find("cannot write"), std::string::npos)
      << unwritable.stderr_data;

  const std::string corrupt = MakeTempDir("bench-corrupt") + "/results.db";
  std::string garbage(4096, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(i * 7919 % 251);
  std::ofstream(corrupt, std::ios::binary) << garbage;
  util::SubprocessResult r = RunSnare({"bench", "--quick", "--suites=ladder", "--rungs=native",
                                       "--syscalls=getppid", "--db=" + corrupt});
  EXPECT_EQ(r.status, 1) << r.Describe();
  EXPECT_NE(r.stderr_data.find("not a snare results database"), std::string::npos) << r.stderr_data;
  EXPECT_EQ(ReadFile(corrupt), garbage) << "the corrupt database was modified";

  util::SubprocessResult missing = RunSnare({"report", "--db=" + corrupt + ".missing"});
  EXPECT_NE(missing.status, 0);
}

TEST(BenchQuickTest, InterruptedRunStoresNothing) {
  const std::string db = MakeTempDir("bench-int") + "/results.db";
  util::SubprocessResult first = RunSnare({"bench", "--quick", "--suites=ladder", "--rungs=native",
                                           "--syscalls=getppid", "--db=" + db});
  ASSERT_EQ(first.status, 0) << first.Describe();

  // A full ladder (not --quick) runs for far longer than the 2 s before the interrupt on
  // any machine, so the interrupt always lands in the middle of measuring.
  util::Subprocess bench;
  ASSERT_TRUE(bench.Start({Snare(), "bench", "--suites=ladder", "--db=" + db}));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  kill(bench.pid(), SIGINT);
  util::SubprocessResult interrupted = bench.Wait();
  EXPECT_NE(interrupted.status, 0) << interrupted.Describe();
  EXPECT_NE(interrupted.stderr_data.find("snare bench: 1/"), std::string::npos)
      << "the interrupted run had not started measuring\n"
      << interrupted.Describe();

  util::SubprocessResult list = RunSnare({"report", "--db=" + db, "--json"});
  ASSERT_EQ(list.status, 0) << list.Describe();
  auto j = nlohmann::json::parse(list.stdout_data, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["id"].get<int>(), 1) << "the interrupted run left a row behind";
  EXPECT_EQ(j["rows"].size(), 1u);
}

}  // namespace
}  // namespace snare::tests
