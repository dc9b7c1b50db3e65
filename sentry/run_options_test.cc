#include "sentry/run_options.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sentry/syscall_table.h"

namespace snare {
namespace {

using Args = std::vector<std::string>;
using StatsFormat = RunOptions::StatsFormat;

constexpr int kGetppid = 110;
constexpr int kEperm = 1;
constexpr int kEacces = 13;

// The error of a parse that must fail ("" and a test failure if it succeeded).
std::string ErrorOf(const Args& args) {
  auto o = ParseRunOptions(args);
  if (o) {
    ADD_FAILURE() << "parse succeeded";
    return "";
  }
  return o.error();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(RunOptionsTest, Defaults) {
  auto o = ParseRunOptions({"prog", "a", "b"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "systrap");
  EXPECT_EQ(o->stats, StatsFormat::kNone);
  EXPECT_EQ(o->stats_file, "");
  EXPECT_FALSE(o->trace);
  EXPECT_EQ(o->trace_file, "");
  EXPECT_TRUE(o->overrides.empty());
  EXPECT_EQ(o->spin_iterations, 2000u);
  EXPECT_EQ(o->argv, (Args{"prog", "a", "b"}));
}

TEST(RunOptionsTest, Platform) {
  auto o = ParseRunOptions({"--platform=inproc", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "inproc");
  o = ParseRunOptions({"--platform=inproc", "--platform=systrap", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->platform, "systrap");

  std::string err = ErrorOf({"--platform=bogus", "prog"});
  EXPECT_TRUE(Contains(err, "unknown platform")) << err;
  EXPECT_TRUE(Contains(err, "bogus")) << err;
  EXPECT_TRUE(Contains(err, "systrap")) << err;
  EXPECT_TRUE(Contains(err, "inproc")) << err;
  err = ErrorOf({"--platform=", "prog"});
  EXPECT_TRUE(Contains(err, "unknown platform")) << err;
}

TEST(RunOptionsTest, Stats) {
  auto o = ParseRunOptions({"--stats", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kTable);
  EXPECT_EQ(o->stats_file, "");

  o = ParseRunOptions({"--stats=json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kJson);

  o = ParseRunOptions({"--stats=table", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kTable);

  std::string err = ErrorOf({"--stats=xml", "prog"});
  EXPECT_TRUE(Contains(err, "xml")) << err;
  EXPECT_TRUE(Contains(err, "--stats")) << err;
}

TEST(RunOptionsTest, StatsFileImpliesTable) {
  auto o = ParseRunOptions({"--stats-file=out.txt", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kTable);
  EXPECT_EQ(o->stats_file, "out.txt");

  // An explicit format wins, in either order.
  o = ParseRunOptions({"--stats=json", "--stats-file=out.json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kJson);
  EXPECT_EQ(o->stats_file, "out.json");
  o = ParseRunOptions({"--stats-file=out.json", "--stats=json", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->stats, StatsFormat::kJson);

  std::string err = ErrorOf({"--stats-file=", "prog"});
  EXPECT_TRUE(Contains(err, "--stats-file")) << err;
}

TEST(RunOptionsTest, Trace) {
  auto o = ParseRunOptions({"--trace", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->trace);
  EXPECT_EQ(o->trace_file, "");

  o = ParseRunOptions({"--trace=/tmp/trace.txt", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->trace);
  EXPECT_EQ(o->trace_file, "/tmp/trace.txt");

  std::string err = ErrorOf({"--trace=", "prog"});
  EXPECT_TRUE(Contains(err, "--trace")) << err;
}

TEST(RunOptionsTest, DenyWithErrnoName) {
  auto o = ParseRunOptions({"--deny=getppid:EACCES", "prog"});
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->overrides.size(), 1u);
  EXPECT_EQ(o->overrides[0].nr, kGetppid);
  EXPECT_EQ(o->overrides[0].disposition, Disposition::kDeny);
  EXPECT_EQ(o->overrides[0].err, kEacces);
}

TEST(RunOptionsTest, DenyWithErrnoNumber) {
  auto o = ParseRunOptions({"--deny=getppid:13", "prog"});
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->overrides.size(), 1u);
  EXPECT_EQ(o->overrides[0].nr, kGetppid);
  EXPECT_EQ(o->overrides[0].disposition, Disposition::kDeny);
  EXPECT_EQ(o->overrides[0].err, kEacces);

  o = ParseRunOptions({"--deny=getppid:4095", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->overrides[0].err, 4095);
}

TEST(RunOptionsTest, DenyDefaultsToEperm) {
  auto o = ParseRunOptions({"--deny=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->overrides.size(), 1u);
  EXPECT_EQ(o->overrides[0].err, kEperm);
}

TEST(RunOptionsTest, BadDenials) {
  std::string err = ErrorOf({"--deny=nosuchcall", "prog"});
  EXPECT_TRUE(Contains(err, "unknown syscall")) << err;
  EXPECT_TRUE(Contains(err, "nosuchcall")) << err;

  for (const char* bad : {"EBOGUS", "0", "-1", "4096", "13x", "0x0d"}) {
    SCOPED_TRACE(bad);
    err = ErrorOf({std::string("--deny=getppid:") + bad, "prog"});
    EXPECT_TRUE(Contains(err, "unknown errno")) << err;
    EXPECT_TRUE(Contains(err, bad)) << err;
  }
}

TEST(RunOptionsTest, Kill) {
  auto o = ParseRunOptions({"--kill=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->overrides.size(), 1u);
  EXPECT_EQ(o->overrides[0].nr, kGetppid);
  EXPECT_EQ(o->overrides[0].disposition, Disposition::kKill);

  std::string err = ErrorOf({"--kill=getppid:EPERM", "prog"});
  EXPECT_TRUE(Contains(err, "--kill takes no errno")) << err;
  err = ErrorOf({"--kill=nosuchcall", "prog"});
  EXPECT_TRUE(Contains(err, "nosuchcall")) << err;
}

TEST(RunOptionsTest, OverridesKeepCommandLineOrder) {
  auto o = ParseRunOptions({"--deny=openat:ENOENT", "--kill=getppid", "--deny=getppid", "prog"});
  ASSERT_TRUE(o) << o.error();
  ASSERT_EQ(o->overrides.size(), 3u);
  EXPECT_EQ(o->overrides[0].nr, FindSyscallByName("openat")->nr);
  EXPECT_EQ(o->overrides[0].err, 2);
  EXPECT_EQ(o->overrides[1].nr, kGetppid);
  EXPECT_EQ(o->overrides[1].disposition, Disposition::kKill);
  EXPECT_EQ(o->overrides[2].nr, kGetppid);
  EXPECT_EQ(o->overrides[2].disposition, Disposition::kDeny);
}

TEST(RunOptionsTest, Spin) {
  auto o = ParseRunOptions({"--spin=0", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->spin_iterations, 0u);
  o = ParseRunOptions({"--spin=10000000", "prog"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->spin_iterations, 10000000u);

  for (const char* bad : {"abc", "", "10000001", "-1", "12abc", "99999999999999999999999"}) {
    SCOPED_TRACE(bad);
    std::string err = ErrorOf({std::string("--spin=") + bad, "prog"});
    EXPECT_TRUE(Contains(err, "--spin")) << err;
  }
}

TEST(RunOptionsTest, DoubleDashEndsOptions) {
  auto o = ParseRunOptions({"--trace", "--", "--stats", "x"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_TRUE(o->trace);
  EXPECT_EQ(o->stats, StatsFormat::kNone);
  EXPECT_EQ(o->argv, (Args{"--stats", "x"}));

  o = ParseRunOptions({"--", "--"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_EQ(o->argv, (Args{"--"}));
}

TEST(RunOptionsTest, OptionsStopAtTheProgram) {
  auto o = ParseRunOptions({"prog", "--trace", "--", "--bogus"});
  ASSERT_TRUE(o) << o.error();
  EXPECT_FALSE(o->trace);
  EXPECT_EQ(o->argv, (Args{"prog", "--trace", "--", "--bogus"}));
}

TEST(RunOptionsTest, MissingProgram) {
  EXPECT_TRUE(Contains(ErrorOf({}), "no program")) << ErrorOf({});
  EXPECT_TRUE(Contains(ErrorOf({"--trace"}), "no program"));
  EXPECT_TRUE(Contains(ErrorOf({"--trace", "--"}), "no program"));
}

TEST(RunOptionsTest, UnknownOption) {
  for (const char* bad : {"--bogus", "--platform", "--stats-file", "--spin", "--deny",
                          "--tracefile=x", "--statsjson"}) {
    SCOPED_TRACE(bad);
    std::string err = ErrorOf({bad, "prog"});
    EXPECT_TRUE(Contains(err, "unknown option")) << err;
    EXPECT_TRUE(Contains(err, bad)) << err;
  }
}

}  // namespace
}  // namespace snare
