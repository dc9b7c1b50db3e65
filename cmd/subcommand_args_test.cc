// bench, report and lab parse `--opt VALUE` and `--opt=VALUE` alike, print --help, and refuse
// what they do not know with exit status 2.
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "cmd/bench_command.h"
#include "cmd/lab_command.h"
#include "cmd/report_command.h"
#include "gtest/gtest.h"

namespace snare::cmd {
namespace {

using Args = std::vector<std::string>;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BenchArgsTest, SpaceAndEqualsForms) {
  for (const Args& args : {Args{"--db", "/tmp/x.db", "--quick", "--suites", "ladder,depth"},
                           Args{"--db=/tmp/x.db", "--quick", "--suites=ladder,depth"}}) {
    auto o = ParseBenchArgs(args);
    ASSERT_TRUE(o) << o.error().text;
    EXPECT_EQ(o->db, "/tmp/x.db");
    EXPECT_TRUE(o->quick);
    EXPECT_EQ(o->suites, (std::set<std::string>{"ladder", "depth"}));
    EXPECT_EQ(o->reps, 3);  // --quick's default
    EXPECT_EQ(o->depth_step, 4);
    EXPECT_EQ(o->rungs.size(), bench::RungNames().size());  // all by default
    EXPECT_TRUE(o->rungs.count("systrap-confined"));
  }
  auto o = ParseBenchArgs({"--quick", "--reps", "5", "--max-depth", "8", "--max-tasks=2"});
  ASSERT_TRUE(o) << o.error().text;
  EXPECT_EQ(o->reps, 5);
  EXPECT_EQ(o->max_depth, 8);
  EXPECT_EQ(o->max_tasks, 2);
}

TEST(BenchArgsTest, RefusalsNameWhatWasWrong) {
  struct Case {
    Args args;
    std::string message;
  } cases[] = {
      {{"--rungs=native,bogus"}, "unknown name 'bogus' in --rungs"},
      {{"--suites", "sweeps"}, "unknown name 'sweeps' in --suites"},
      {{"--syscalls=getpid"}, "getpid"},
      {{"--max-depth=33"}, "at most 32"},
      {{"--reps=0"}, "--reps"},
      {{"--reps=x"}, "--reps"},
      {{"--frobnicate"}, "--frobnicate"},
      {{"--db="}, "--db needs a"},
      {{"--db"}, "--db needs a value"},
      {{"stray"}, "unknown argument 'stray'"},
  };
  for (const Case& c : cases) {
    auto o = ParseBenchArgs(c.args);
    ASSERT_FALSE(o) << c.message;
    EXPECT_EQ(o.error().status, 2);
    EXPECT_TRUE(Contains(o.error().text, c.message)) << o.error().text;
    EXPECT_TRUE(Contains(o.error().text, "usage: snare bench")) << o.error().text;
  }
}

TEST(BenchArgsTest, Help) {
  auto o = ParseBenchArgs({"--help"});
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().status, 0);
  for (const char* option : {"--quick", "--db", "--suites", "--rungs", "--syscalls", "--max-depth",
                             "--depth-step", "--max-tasks", "--reps", "--json"}) {
    EXPECT_TRUE(Contains(o.error().text, option)) << option << "\n" << o.error().text;
  }
}

TEST(ReportArgsTest, Forms) {
  auto o = ParseReportArgs({"--db", "/tmp/r.db", "7", "--plots", "out", "--format=svg"});
  ASSERT_TRUE(o) << o.error().text;
  EXPECT_EQ(o->db, "/tmp/r.db");
  EXPECT_EQ(o->id, 7);
  EXPECT_EQ(o->plots, "out");
  EXPECT_EQ(o->format, "svg");
  o = ParseReportArgs({"--compare", "3,9", "--db=/tmp/r.db"});
  ASSERT_TRUE(o) << o.error().text;
  EXPECT_EQ(o->compare_a, 3);
  EXPECT_EQ(o->compare_b, 9);
  o = ParseReportArgs({"latest"});
  ASSERT_TRUE(o) << o.error().text;
  EXPECT_EQ(o->id, 0);
  // `report --db=` no longer silently means the default database.
  for (const Args& bad : {Args{"--db="}, Args{"--compare=3"}, Args{"--format=gif"}, Args{"x"},
                          Args{"--plots="}, Args{"--bogus"}}) {
    auto r = ParseReportArgs(bad);
    ASSERT_FALSE(r) << bad[0];
    EXPECT_EQ(r.error().status, 2) << bad[0];
  }
  auto help = ParseReportArgs({"--help"});
  ASSERT_FALSE(help);
  EXPECT_EQ(help.error().status, 0);
  EXPECT_TRUE(Contains(help.error().text, "--compare")) << help.error().text;
}

TEST(LabArgsTest, Forms) {
  auto o = ParseLabArgs(
      {"run", "--variants", "stock,reserve", "--db", "/tmp/l.db", "--no-kvm", "--timeout=30"});
  ASSERT_TRUE(o) << o.error().text;
  EXPECT_EQ(o->action, "run");
  EXPECT_EQ(o->variants, (std::vector<std::string>{"stock", "reserve"}));
  EXPECT_EQ(o->db, "/tmp/l.db");
  EXPECT_FALSE(o->kvm);
  EXPECT_EQ(o->timeout_s, 30);
  EXPECT_EQ(o->config, "lab");
  auto selftests = ParseLabArgs({"selftests", "--config", "debug"});
  ASSERT_TRUE(selftests) << selftests.error().text;
  EXPECT_EQ(selftests->action, "selftests");
  EXPECT_EQ(selftests->config, "debug");
  for (const Args& bad : {Args{}, Args{"boil"}, Args{"run", "--timeout=0"}, Args{"run", "--cache="},
                          Args{"run", "--frob"}, Args{"run", "--config="}}) {
    auto r = ParseLabArgs(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().status, 2) << r.error().text;
  }
}

}  // namespace
}  // namespace snare::cmd
