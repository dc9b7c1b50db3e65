// Syscall patching (--patch): from the 16th trap at glibc's getppid() site (--patch-after),
// the calls come through the patched site without a signal. The ones the policy passes the
// stub runs itself (counted as "in stub"); the rest, and every trapped call, are the
// sentry's, counted and decided by it (a --deny holds at the patched site); with --trace or
// --all-to-sentry every one is. It is on by default; with --no-patch nothing is patched. The escape
// and run-compare tests run with it on (patching at the first trap) and off; sandbox_escape_test's
// forged_policy forges the table the stub decides with.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

using nlohmann::json;

constexpr int kCalls = 2000;

struct SnaredRun {
  util::SubprocessResult result;
  json stats;  // the getppid row of --stats=json (or the row SnaredGuest was asked for)
  std::string Describe() const { return result.Describe() + "\nstats: " + stats.dump(1); }
};

// A test guest with its arguments under `snare run --profile=PROFILE FLAGS`, with the stats
// of `syscall`.
SnaredRun SnaredGuest(const std::string& guest_name, const std::vector<std::string>& guest_args,
                      const std::vector<std::string>& flags, const std::string& syscall = "getppid",
                      const std::string& profile = "trace") {
  auto snare = SnareBinary();
  auto guest = GuestPath(guest_name);
  EXPECT_TRUE(snare && guest);
  const std::string stats_path = TestTmpDir() + "/patch-stats.json";
  std::vector<std::string> argv = {*snare, "run", "--profile=" + profile, "--stats=json",
                                   "--stats-file=" + stats_path};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"--", *guest});
  argv.insert(argv.end(), guest_args.begin(), guest_args.end());
  SnaredRun run;
  util::SubprocessOptions options;
  options.timeout = std::chrono::seconds(60);
  run.result = util::RunSubprocess(argv, options);
  util::SubprocessResult cat = util::RunSubprocess({"cat", stats_path});
  const json all = json::parse(cat.stdout_data, nullptr, false);
  if (!all.is_discarded() && all.contains("syscalls")) {
    for (const json& row : all["syscalls"]) {
      if (row.value("name", "") == syscall) run.stats = row;
    }
  }
  return run;
}

SnaredRun Snared(const std::vector<std::string>& flags, int calls = kCalls) {
  return SnaredGuest("libc_getppid_loop", {std::to_string(calls)}, flags);
}

// What the sentry handled and what the stub ran unasked add up to every call.
int SeenOrInStub(const SnaredRun& run) {
  return run.stats.value("sentry_calls", 0) + run.stats.value("in_stub_calls", 0);
}

TEST(PatchTest, PatchedCallsThePolicyPassesRunInTheStub) {
  const SnaredRun run = Snared({"--patch", "--patch-after=1"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "ok " + std::to_string(kCalls) + "\n") << run.Describe();
  EXPECT_EQ(run.stats.value("calls", 0), kCalls) << run.Describe();
  // The first call (at least) trapped to the sentry; the stub ran the rest, from the patched
  // site, without it.
  EXPECT_GE(run.stats.value("sentry_calls", 0), 1) << run.Describe();
  EXPECT_GE(run.stats.value("in_stub_calls", 0), kCalls - 10) << run.Describe();
  EXPECT_EQ(run.stats.value("in_stub_calls", 0), run.stats.value("patched_calls", -1))
      << run.Describe();
  EXPECT_EQ(SeenOrInStub(run), kCalls) << run.Describe();
}

TEST(PatchTest, PatchViaSentrySendsEveryPatchedCallToTheSentry) {
  const SnaredRun run = Snared({"--patch", "--patch-after=1", "--all-to-sentry"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "ok " + std::to_string(kCalls) + "\n") << run.Describe();
  EXPECT_EQ(run.stats.value("sentry_calls", 0), kCalls) << run.Describe();
  EXPECT_EQ(run.stats.value("in_stub_calls", -1), 0) << run.Describe();
  EXPECT_GE(run.stats.value("patched_calls", 0), kCalls - 10) << run.Describe();
  EXPECT_LT(run.stats.value("patched_calls", 0), kCalls) << run.Describe();
}

// The threshold given: by default a crowded machine (a parallel `bazel test`) patches at the
// first trap.
TEST(PatchTest, ASiteIsPatchedAtItsSixteenthTrap) {
  const SnaredRun run = Snared({"--patch-after=16"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(SeenOrInStub(run), kCalls) << run.Describe();
  EXPECT_GE(run.stats.value("sentry_calls", 0), 16) << run.Describe();
  EXPECT_LE(run.stats.value("patched_calls", 0), kCalls - 16) << run.Describe();
  EXPECT_GE(run.stats.value("patched_calls", 0), kCalls - 16 - 10) << run.Describe();
  // A site called fewer times than that is left as it is.
  const SnaredRun few = Snared({"--patch-after=16"}, 15);
  ASSERT_EQ(few.result.status, 0) << few.Describe();
  EXPECT_EQ(few.stats.value("sentry_calls", 0), 15) << few.Describe();
  EXPECT_EQ(few.stats.value("patched_calls", -1), 0) << few.Describe();
}

// The `mov` of a site may lie anywhere in a 16-byte block; where its five bytes cross into
// the next one, no single store rewrites them, and the patcher parks arriving threads on a
// `jmp .` meanwhile, or (the `mov` at the block's last byte, no room to park) writes the jump's
// rel32 first and maps the number a thread then traps with back to the site's. Four threads
// call the sites while they are patched; every call must still return the parent's pid, and
// the guest's own text must show all sixteen sites rewritten.
TEST(PatchTest, SitesAtEveryOffsetArePatchedWhileThreadsRunThem) {
  constexpr int kPerSite = 300, kThreads = 4;
  const SnaredRun run =
      SnaredGuest("aligned_sites", {std::to_string(kPerSite), std::to_string(kThreads)},
                  {"--patch", "--patch-after=1"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "ok\npatched 0xffff\ntorn getppid\n") << run.Describe();
  // The guest's own getppid() at the start, the 16 sites' calls and the torn one, each the
  // sentry's or the stub's: the torn call counts as getppid, not as its rel32.
  EXPECT_EQ(SeenOrInStub(run), 16 * kPerSite * kThreads + 2) << run.Describe();
  EXPECT_GT(run.stats.value("patched_calls", 0), 0) << run.Describe();
}

// Only file-backed text is patched, and the patcher forgets what /proc/self/maps said where
// the guest maps over or unmaps it: the same bytes at the same address, now anonymous, stay;
// and text the guest maps elsewhere later is found and patched.
TEST(PatchTest, AnonymousCodeWhereAFileWasIsNotPatched) {
  // The patcher asks the kernel about each site's mapping (PROCMAP_QUERY) where the guest's
  // policy lets its ioctl through, else it reads /proc/self/maps whole and caches the ranges.
  for (const char* lookup : {"--patch", "--deny=ioctl"}) {
    auto run = SnaredGuest("remapped_site_guest", {"40"}, {"--patch", lookup});
    ASSERT_EQ(run.result.status, 0) << lookup << "\n" << run.Describe();
    EXPECT_EQ(run.result.stdout_data, "ok\npatched-file 1\npatched-anon 0\npatched-later 1\n")
        << lookup << "\n"
        << run.Describe();
  }
}

// glibc's read() has no `mov $0, %eax` before its `syscall` (an `xor`): its fast path, for a
// process of one thread, is entered at the `cmpb` of its one-thread test, which the trampoline
// repeats; its path for a process that has had a second thread, at the first of the four
// moves before the `xor`, which the trampoline makes. Reads after a second thread starts take
// that other path (through the first trampoline's `je`), patched from its own 16th trap.
TEST(PatchTest, GlibcReadIsPatchedOnBothItsPaths) {
  constexpr int kReads = 2000;
  const SnaredRun run =
      SnaredGuest("libc_read_loop", {std::to_string(kReads), "alone"}, {"--patch"}, "read");
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "ok " + std::to_string(2 * kReads) + "\n") << run.Describe();
  EXPECT_GE(run.stats.value("in_stub_calls", 0), 2 * kReads - 2 * 16 - 10) << run.Describe();
  const SnaredRun crowded =
      SnaredGuest("libc_read_loop", {std::to_string(kReads), "crowded"}, {"--patch"}, "read");
  ASSERT_EQ(crowded.result.status, 0) << crowded.Describe();
  EXPECT_EQ(crowded.result.stdout_data, "ok " + std::to_string(kReads) + "\n")
      << crowded.Describe();
  EXPECT_GE(crowded.stats.value("in_stub_calls", 0), kReads - 16 - 10) << crowded.Describe();
}

TEST(PatchTest, ADenyHoldsAtThePatchedSite) {
  const SnaredRun run = Snared({"--patch", "--patch-after=1", "--deny=getppid:EACCES"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "EACCES " + std::to_string(kCalls) + "\n") << run.Describe();
  EXPECT_EQ(run.stats.value("sentry_denied", 0), kCalls) << run.Describe();
  EXPECT_GE(run.stats.value("patched_calls", 0), kCalls - 10) << run.Describe();
  EXPECT_EQ(run.stats.value("in_stub_calls", -1), 0) << run.Describe();
}

TEST(PatchTest, AKillHoldsAtThePatchedSite) {
  const SnaredRun run = Snared({"--patch", "--patch-after=1", "--kill=getppid"});
  EXPECT_EQ(run.result.status, 128 + 31) << run.Describe();  // SIGSYS at the first call
  EXPECT_EQ(run.result.stdout_data, "") << run.Describe();
}

TEST(PatchTest, PatchedCallsAreTraced) {
  auto snare = SnareBinary();
  auto guest = GuestPath("libc_getppid_loop");
  ASSERT_TRUE(snare && guest);
  util::SubprocessResult r =
      util::RunSubprocess({*snare, "run", "--profile=trace", "--patch", "--patch-after=1",
                           "--trace", "--", *guest, "500"});
  ASSERT_EQ(r.status, 0) << r.Describe();
  size_t lines = 0;
  for (size_t at = 0; (at = r.stderr_data.find("getppid() = ", at)) != std::string::npos; ++at) {
    ++lines;
  }
  EXPECT_EQ(lines, 500u) << r.stderr_data.substr(0, 3000);
}

TEST(PatchTest, WithNoPatchNothingIsPatched) {
  const SnaredRun run = Snared({"--no-patch"});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.stats.value("sentry_calls", 0), kCalls) << run.Describe();
  EXPECT_EQ(run.stats.value("patched_calls", -1), 0) << run.Describe();
}

// rt_sigprocmask is patched too (each thread's start and end make three or four): through the
// patched site, as through a trap, the stub blocks what the guest asks but never SIGSYS.
TEST(PatchTest, SigprocmaskIsPatchedAndNeverBlocksSigsys) {
  const SnaredRun run = SnaredGuest("sigmask_loop", {std::to_string(kCalls)}, {}, "rt_sigprocmask");
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(run.result.stdout_data, "ok " + std::to_string(kCalls) + "\ndelivered 1\n")
      << run.Describe();
  // Three calls a round, from one site (and a few of glibc's own elsewhere).
  EXPECT_GE(run.stats.value("patched_calls", 0), 3 * kCalls - 16 - 10) << run.Describe();
}

// The default (sandbox) profile's argument rules on openat (no setuid modes) leave the
// patcher's own openat of /proc/self/maps passing: patching stays on there.
TEST(PatchTest, TheSandboxProfilePatchesToo) {
  const SnaredRun run =
      SnaredGuest("libc_getppid_loop", {std::to_string(kCalls)}, {}, "getppid", "sandbox");
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_GE(run.stats.value("patched_calls", 0), kCalls - 16 - 10) << run.Describe();
}

TEST(PatchTest, SystrapPatchesByDefault) {
  const SnaredRun run = Snared({});
  ASSERT_EQ(run.result.status, 0) << run.Describe();
  EXPECT_EQ(SeenOrInStub(run), kCalls) << run.Describe();
  EXPECT_GE(run.stats.value("patched_calls", 0), kCalls - 16 - 10) << run.Describe();
}

}  // namespace
}  // namespace snare::tests
