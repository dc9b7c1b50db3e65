#include "sentry/syscall_stats.h"

#include <sys/syscall.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

using nlohmann::json;

// The guest rewrote the stub's counters (getppid 424242); the sentry counted 1000.
struct Forged {
  std::vector<platform::SyscallCounters> stub =
      std::vector<platform::SyscallCounters>(abi::kSyscallLimit);
  std::vector<SentryCounters> sentry = std::vector<SentryCounters>(abi::kSyscallLimit);
  Forged() {
    stub[SYS_getppid].calls = 424242;
    sentry[SYS_getppid] = {1000, 3, 0};
    sentry[SYS_exit_group] = {1, 0, 0};  // erased from the stub's counters
  }
};

const json* Row(const json& doc, const std::string& name) {
  for (const json& row : doc["syscalls"]) {
    if (row.value("name", "") == name) return &row;
  }
  return nullptr;
}

TEST(SyscallStatsTest, SystrapJsonNamesTheSentrysCountAuthoritative) {
  Forged f;
  SyscallStats stats = CollectStats(f.stub, f.sentry, 1.0, "systrap");
  stats.trace_lines_dropped = 7;
  json doc = json::parse(RenderStatsJson(stats));
  EXPECT_EQ(doc["authoritative"], "sentry_calls");
  EXPECT_EQ(doc["advisory"], json({"calls", "errors", "patched_calls", "in_stub_calls",
                                   "trap_ns_per_call", "trap_ns_total", "syscall_ns_total"}));
  const json* getppid = Row(doc, "getppid");
  ASSERT_NE(getppid, nullptr) << doc.dump(1);
  EXPECT_EQ((*getppid)["sentry_calls"], 1000);
  EXPECT_EQ((*getppid)["sentry_denied"], 3);
  EXPECT_EQ((*getppid)["calls"], 424242);  // kept, as advisory
  const json* exit_group = Row(doc, "exit_group");
  ASSERT_NE(exit_group, nullptr) << "a call only the sentry saw is missing";
  EXPECT_EQ((*exit_group)["sentry_calls"], 1);
  EXPECT_EQ(doc["total"]["sentry_calls"], 1001);
  EXPECT_EQ(doc["trace"]["lines_dropped"], 7);
  // Rows are ordered by the authoritative count.
  EXPECT_EQ(doc["syscalls"][0]["name"], "getppid");
}

TEST(SyscallStatsTest, InprocJsonIsAdvisoryThroughout) {
  Forged f;
  json doc = json::parse(RenderStatsJson(CollectStats(f.stub, {}, 1.0, "inproc")));
  EXPECT_TRUE(doc.contains("authoritative"));
  EXPECT_TRUE(doc["authoritative"].is_null());
  const json* getppid = Row(doc, "getppid");
  ASSERT_NE(getppid, nullptr);
  EXPECT_FALSE(getppid->contains("sentry_calls"));
  EXPECT_FALSE(doc.contains("trace"));
  EXPECT_NE(doc["note"].get<std::string>().find("guest"), std::string::npos);
}

TEST(SyscallStatsTest, TablesSayWhatIsAuthoritative) {
  Forged f;
  const std::string systrap = RenderStatsTable(CollectStats(f.stub, f.sentry, 1.0, "systrap"));
  EXPECT_NE(systrap.find(" sentry "), std::string::npos) << systrap;
  EXPECT_NE(systrap.find("(authoritative)"), std::string::npos) << systrap;
  EXPECT_NE(systrap.find("(advisory)"), std::string::npos) << systrap;
  const std::string inproc = RenderStatsTable(CollectStats(f.stub, {}, 1.0, "inproc"));
  EXPECT_EQ(inproc.find(" sentry "), std::string::npos) << inproc;
  EXPECT_EQ(inproc.find("(authoritative)"), std::string::npos) << inproc;
  EXPECT_NE(inproc.find("(advisory)"), std::string::npos) << inproc;
}

TEST(SyscallStatsTest, TheLaunchAndTheReapingAreShownWhereTheSentryWasAsked) {
  Forged f;
  SyscallStats stats = CollectStats(f.stub, f.sentry, 1.0, "systrap");
  EXPECT_EQ(RenderStatsTable(stats).find("first call"), std::string::npos);
  EXPECT_FALSE(json::parse(RenderStatsJson(stats))["sentry"].contains("first_call_ms"));
  stats.first_call_ms = 7.25;
  stats.reaped_ms = 41.5;
  const std::string table = RenderStatsTable(stats);
  EXPECT_NE(table.find("the guest's first call reached the sentry 7.2 ms after snare started; "
                       "its last process was reaped at 41.5 ms\n"),
            std::string::npos)
      << table;
  const json doc = json::parse(RenderStatsJson(stats));
  EXPECT_DOUBLE_EQ(doc["sentry"].value("first_call_ms", 0.0), 7.25);
  EXPECT_DOUBLE_EQ(doc["sentry"].value("reaped_ms", 0.0), 41.5);
}

}  // namespace
}  // namespace snare::sentry
