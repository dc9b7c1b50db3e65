// For every syscall in the table, `snare run --deny=NAME` and `--kill=NAME` leave /bin/true
// and `sh -c 'true & wait'` working, unless the guest itself makes that call (or one of the
// calls of its group, which the rule covers too): the rule is the guest's, never the stub's,
// which makes its own calls before the filter goes on or through pinned exceptions
// (platform/systrap/seccomp_program.cc). What the guest itself calls comes from a --trace run
// of the same program (several: a shell's calls depend on whether its child ended first), and
// each run with a rule is traced too, so a run that fails shows whether the guest made the
// call that time; a rule on such a call may break the guest, as it would natively, so for
// those the test only asks that snare starts and ends.
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "abi/syscall_group.h"
#include "abi/syscall_table.h"
#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

struct Program {
  std::string name;
  std::vector<std::string> argv;
};

void PrintTo(const Program& p, std::ostream* os) { *os << p.name; }

class DenyEachSyscallTest : public ::testing::TestWithParam<std::tuple<std::string, Program>> {};

// The names of the calls the guest made, from --trace lines ("[PID] NAME(...").
std::set<std::string> TracedCalls(const std::string& trace) {
  static const std::regex kLine(R"(^\[\d+\] ([a-z_0-9]+)\()");
  std::set<std::string> names;
  size_t start = 0;
  while (start < trace.size()) {
    size_t end = trace.find('\n', start);
    if (end == std::string::npos) end = trace.size();
    std::smatch m;
    const std::string line = trace.substr(start, end - start);
    if (std::regex_search(line, m, kLine)) names.insert(m[1].str());
    start = end + 1;
  }
  return names;
}

// Whether the guest made the call or one of its group.
bool GuestMakes(const std::set<std::string>& traced, const abi::SyscallInfo& info) {
  if (traced.count(info.name)) return true;
  const abi::SyscallGroup* group = abi::GroupOfSyscall(info.nr);
  for (int i = 0; group && i < group->count; ++i) {
    if (traced.count(group->members[i])) return true;
  }
  return false;
}

TEST_P(DenyEachSyscallTest, RulesOnCallsTheGuestDoesNotMakeChangeNothing) {
  const std::string& platform = std::get<0>(GetParam());
  const Program& program = std::get<1>(GetParam());
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();
  util::SubprocessOptions options;
  options.cwd = TestTmpDir();
  options.timeout = std::chrono::seconds(30);

  auto argv_with = [&](std::vector<std::string> flags) {
    std::vector<std::string> argv = {*snare, "run", "--platform=" + platform};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("--");
    argv.insert(argv.end(), program.argv.begin(), program.argv.end());
    return argv;
  };
  std::set<std::string> traced;
  for (int i = 0; i < 5; ++i) {
    util::SubprocessResult r = util::RunSubprocess(argv_with({"--trace"}), options);
    ASSERT_EQ(r.status, 0) << r.Describe();
    traced.merge(TracedCalls(r.stderr_data));
  }
  ASSERT_GT(traced.size(), 10u) << "too few calls in the traces";

  // A rule on a call the guest makes may hang it (sh waits for a SIGCHLD it never gets
  // without rt_sigaction): a short timeout keeps the sweep quick.
  options.timeout = std::chrono::seconds(5);
  int free_calls = 0, guest_calls = 0;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const abi::SyscallInfo& info = abi::kSyscalls[i];
    const bool guest_makes = GuestMakes(traced, info);
    (guest_makes ? guest_calls : free_calls)++;
    for (const char* rule : {"--deny=", "--kill="}) {
      const std::string flag = rule + std::string(info.name);
      const std::vector<std::string> argv = argv_with({flag, "--trace"});
      util::SubprocessResult r = util::RunSubprocess(argv, options);
      if (guest_makes) {
        // The guest's own call: any outcome, but snare itself must not fail to start or end.
        EXPECT_TRUE(r.start_error.empty()) << r.start_error;
        EXPECT_EQ(r.stderr_data.find("snare: cannot"), std::string::npos)
            << util::ShellQuote(ForDisplay(argv)) << "\n"
            << r.stderr_data.substr(0, 2000);
        continue;
      }
      if (r.status == 0 && !r.timed_out) continue;
      if (GuestMakes(TracedCalls(r.stderr_data), info)) continue;  // it did this time
      ADD_FAILURE() << info.name << " is not a call the guest makes (not in its trace), yet\n  "
                    << util::ShellQuote(ForDisplay(argv)) << "\n"
                    << r.Describe();
    }
  }
  RecordProperty("calls_the_guest_makes", guest_calls);
  RecordProperty("calls_it_does_not", free_calls);
  printf("%s %s: %d calls (or their groups) the guest makes, %d it does not\n", platform.c_str(),
         program.name.c_str(), guest_calls, free_calls);
  EXPECT_GT(free_calls, 250) << "the sweep covers too little of the table";
}

INSTANTIATE_TEST_SUITE_P(
    Programs, DenyEachSyscallTest,
    ::testing::Combine(::testing::Values("systrap", "inproc"),
                       ::testing::Values(Program{"true", {"/bin/true"}},
                                         Program{"sh_background_wait",
                                                 {"/bin/sh", "-c", "true & wait"}})),
    [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param).name; });

}  // namespace
}  // namespace snare::tests
