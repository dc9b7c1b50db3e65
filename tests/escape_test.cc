// Each escape attempt of //tests/guests:escape_guest tries to switch interposition off
// (own SIGSYS handler, blocked SIGSYS, seccomp allow-all, ptrace, remapping snare's stub or
// shared region, closing or clobbering snare's fds). Under snare the guest must still exit
// 0 and a getppid() must still be trapped (traced) after the attempt's own syscalls.
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

struct EscapeAttempt {
  std::string name;
  // Substrings of the --trace lines of the attempt's syscalls, in the order they are made
  // (trace arguments: signals and fds in decimal, flags and addresses in hex).
  std::vector<std::string> call_patterns;
};

void PrintTo(const EscapeAttempt& a, std::ostream* os) { *os << a.name; }

std::vector<EscapeAttempt> Attempts() {
  return {
      {"sigaction_sigsys", {"rt_sigaction(31, "}},
      {"block_sigsys", {"rt_sigprocmask(0, "}},
      {"sigaltstack", {"sigaltstack(0x"}},
      {"seccomp_allow", {"prctl(38, ", "prctl(22, 0x2, ", "seccomp(1, "}},
      {"ptrace", {"ptrace(16, ", "ptrace(0, "}},
      {"mmap_stub", {"mmap(0x7e0000000000, 4096, "}},
      {"munmap_stub", {"munmap(0x7e0000000000, 4096)"}},
      {"mprotect_stub", {"mprotect(0x7e0000001000, 4096, 0x3)"}},
      {"mmap_shared", {"mmap(0x7e0100000000, 4096, "}},
      {"munmap_shared", {"munmap(0x7e0100000000, 4096)"}},
      {"mprotect_shared", {"mprotect(0x7e0100000000, 4096, 0x3)"}},
      {"close_reserved", {"close(1020)", "close(1021)", "close(1022)", "close_range(3, "}},
      {"dup2_reserved", {"dup2(1, 1021)"}},
  };
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Index of the first line at or after `from` containing `needle`, or -1.
long FindLine(const std::vector<std::string>& lines, long from, const std::string& needle) {
  for (long i = from < 0 ? 0 : from; i < static_cast<long>(lines.size()); ++i) {
    if (lines[i].find(needle) != std::string::npos) return i;
  }
  return -1;
}

std::string Excerpt(const std::vector<std::string>& lines, long from) {
  std::string out;
  long start = from < 0 ? 0 : from;
  for (long i = start; i < static_cast<long>(lines.size()) && i < start + 40; ++i) {
    out += "  " + lines[i] + "\n";
  }
  return out;
}

// (platform, profile, attempt): under the default profile and under --profile=trace alike.
class EscapeTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, EscapeAttempt>> {};

TEST_P(EscapeTest, InterpositionSurvives) {
  const std::string& platform = std::get<0>(GetParam());
  const std::string& profile = std::get<1>(GetParam());
  const EscapeAttempt& attempt = std::get<2>(GetParam());
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();
  auto guest = GuestPath("escape_guest");
  ASSERT_TRUE(guest.has_value()) << guest.error();

  const std::string trace =
      TestTmpDir() + "/escape-" + platform + "-" + profile + "-" + attempt.name + ".trace";
  std::vector<std::string> argv = {*snare,
                                   "run",
                                   "--platform=" + platform,
                                   "--profile=" + profile,
                                   "--trace=" + trace,
                                   "--",
                                   *guest,
                                   attempt.name};
  util::SubprocessOptions options;
  options.timeout = std::chrono::seconds(60);
  util::SubprocessResult r = util::RunSubprocess(argv, options);
  SCOPED_TRACE("reproduce: " + util::ShellQuote(ForDisplay(argv)) + "\n" + r.Describe());

  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.stdout_data.find("attempt: " + attempt.name + "\n"), std::string::npos);
  EXPECT_NE(r.stdout_data.find("still-trapped-check: getppid ok\n"), std::string::npos);

  std::vector<std::string> lines = ReadLines(trace);
  ASSERT_FALSE(lines.empty()) << "no trace written to " << trace;
  long at = FindLine(lines, 0, "/snare-escape-attempt/" + attempt.name);
  ASSERT_GE(at, 0) << "the marker access() is not in the trace " << trace;
  for (const std::string& pattern : attempt.call_patterns) {
    long next = FindLine(lines, at + 1, pattern);
    ASSERT_GE(next, 0) << "no trace line containing \"" << pattern << "\" after line " << at + 1
                       << " of " << trace << ":\n"
                       << Excerpt(lines, at);
    at = next;
  }
  long getppid = FindLine(lines, at + 1, "getppid() = ");
  EXPECT_GE(getppid, 0) << "no traced getppid() after the attempt (interposition was switched "
                           "off?); trace from the attempt on:\n"
                        << Excerpt(lines, at);
}

INSTANTIATE_TEST_SUITE_P(Platforms, EscapeTest,
                         ::testing::Combine(::testing::Values("systrap", "inproc"),
                                            ::testing::Values("sandbox", "trace"),
                                            ::testing::ValuesIn(Attempts())),
                         [](const ::testing::TestParamInfo<EscapeTest::ParamType>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param) + "_" +
                                  std::get<2>(info.param).name;
                         });

}  // namespace
}  // namespace snare::tests
