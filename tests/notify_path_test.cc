// The seccomp user-notification path (`--notify=openat`): every open the guest makes reaches
// the sentry through the kernel, which holds the arguments, on both platforms. The stats
// count them in "notified_calls" (authoritative even under inproc, where the stub's own
// counters are the guest's), the trace shows each with <notify>, and the opens still work.
#include <nlohmann/json.hpp>
#include <string>

#include "gtest/gtest.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

constexpr int kOpens = 500;

// Lines of text holding both a and b.
size_t CountLines(const std::string& text, const std::string& a, const std::string& b) {
  size_t n = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    n += line.find(a) != std::string::npos && line.find(b) != std::string::npos;
    start = end + 1;
  }
  return n;
}

class NotifyPathTest : public ::testing::TestWithParam<std::string> {};

TEST_P(NotifyPathTest, EveryOpenIsNotifiedCountedAndTraced) {
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();
  const std::string dir = MakeTempDir("notify-");
  ASSERT_FALSE(dir.empty());
  const std::string script = "import os\nfor _ in range(" + std::to_string(kOpens) +
                             "):\n    os.close(os.open('/etc/hostname', os.O_RDONLY))\n"
                             "print('opened')\n";
  util::SubprocessOptions options;
  options.cwd = dir;
  options.timeout = std::chrono::seconds(120);
  const std::vector<std::string> argv = {*snare,
                                         "run",
                                         "--platform=" + GetParam(),
                                         "--notify=openat",
                                         "--trace",
                                         "--stats=json",
                                         "--stats-file=stats.json",
                                         "--",
                                         "/usr/bin/python3",
                                         "-c",
                                         script};
  util::SubprocessResult r = util::RunSubprocess(argv, options);
  SCOPED_TRACE(util::ShellQuote(ForDisplay(argv)));
  ASSERT_EQ(r.status, 0) << r.Describe();
  EXPECT_EQ(r.stdout_data, "opened\n");
  EXPECT_GE(
      CountLines(r.stderr_data, "openat(AT_FDCWD, \"/etc/hostname\", 0x80000", "= ? <notify>"),
      static_cast<size_t>(kOpens));

  util::SubprocessResult cat = util::RunSubprocess({"cat", dir + "/stats.json"});
  nlohmann::json doc = nlohmann::json::parse(cat.stdout_data, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << cat.stdout_data;
  ASSERT_TRUE(doc.contains("notified")) << doc.dump(2);
  uint64_t notified = 0, stub_counted = 0;
  for (const nlohmann::json& row : doc["syscalls"]) {
    if (row.value("name", "") != "openat") continue;
    notified = row.value("notified_calls", uint64_t{0});
    stub_counted = row.value("calls", uint64_t{0});
  }
  EXPECT_GE(notified, static_cast<uint64_t>(kOpens)) << doc.dump(2);
  // They never trapped: the stub saw none of them.
  EXPECT_EQ(stub_counted, 0u) << doc.dump(2);
}

TEST_P(NotifyPathTest, PolicyStillDecidesNotifiedCalls) {
  auto snare = SnareBinary();
  ASSERT_TRUE(snare.has_value()) << snare.error();
  // A notified call with an fd argument that is snare's: the sentry's guards answer EBADF
  // from the kernel's copy of the arguments.
  util::SubprocessResult r = util::RunSubprocess(
      {*snare, "run", "--platform=" + GetParam(), "--notify=openat", "--", "/usr/bin/python3", "-c",
       "import os\ntry:\n    os.open('x', os.O_RDONLY, dir_fd=1022)\nexcept OSError as e:\n"
       "    print(e.errno)\n"},
      {});
  EXPECT_EQ(r.status, 0) << r.Describe();
  EXPECT_EQ(r.stdout_data, "9\n") << r.Describe();  // EBADF
}

INSTANTIATE_TEST_SUITE_P(Platforms, NotifyPathTest, ::testing::Values("systrap", "inproc"));

}  // namespace
}  // namespace snare::tests
