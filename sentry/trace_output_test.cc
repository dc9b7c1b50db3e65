#include "sentry/trace_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "util/scratch_dir_fixture.h"

namespace snare::sentry {
namespace {

namespace fs = std::filesystem;

using TraceOutputTest = util::ScratchDirFixture;

// What the guest does to the trace file by name while it runs changes nothing.
TEST_F(TraceOutputTest, FileCannotBeTruncatedOrRedirectedByName) {
  const fs::path path = dir_ / "trace.txt";
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "victim\n";
  auto output = TraceOutput::Open(path.string());
  ASSERT_TRUE(output) << output.error();
  ASSERT_EQ(write(output->fd(), "line 1\n", 7), 7);
  // The guest's attempts: truncate by name (O_TRUNC without O_CREAT), then a symlink.
  int fd = open(path.c_str(), O_WRONLY | O_TRUNC);
  if (fd >= 0) close(fd);
  if (fs::exists(fs::symlink_status(path))) fs::remove(path);
  fs::create_symlink(victim, path);
  ASSERT_EQ(write(output->fd(), "line 2\n", 7), 7);
  auto finished = output->Finish(/*in_use=*/false);
  ASSERT_TRUE(finished) << finished.error();
  EXPECT_EQ(Read(victim), "victim\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path)));
  EXPECT_EQ(Read(path), "line 1\nline 2\n");
}

// A write that failed (a full disk) cut the trace short: nothing is put at PATH, not even
// the part written before the failure, and no temporary stays beside it.
TEST_F(TraceOutputTest, TraceCutShortIsNotPublished) {
  const fs::path path = dir_ / "trace.txt";
  auto output = TraceOutput::Open(path.string());
  ASSERT_TRUE(output) << output.error();
  ASSERT_EQ(write(output->fd(), "the first half of a li", 22), 22);
  auto finished = output->Finish(/*in_use=*/false, ENOSPC);
  ASSERT_FALSE(finished);
  EXPECT_NE(finished.error().find(path.string()), std::string::npos) << finished.error();
  EXPECT_NE(finished.error().find(strerror(ENOSPC)), std::string::npos) << finished.error();
  EXPECT_TRUE(fs::is_empty(dir_)) << "left: " << fs::directory_iterator(dir_)->path();
}

// A run that failed before its end (its trace never finished) leaves no file.
TEST_F(TraceOutputTest, UnfinishedTraceLeavesNothing) {
  const fs::path path = dir_ / "trace.txt";
  {
    auto output = TraceOutput::Open(path.string());
    ASSERT_TRUE(output) << output.error();
    ASSERT_EQ(write(output->fd(), "line\n", 5), 5);
  }
  EXPECT_TRUE(fs::is_empty(dir_)) << "left: " << fs::directory_iterator(dir_)->path();
}

// The target became a directory: the trace is kept elsewhere and the message says where.
TEST_F(TraceOutputTest, UnpublishableTraceIsKeptAndNamed) {
  const fs::path path = dir_ / "trace.txt";
  auto output = TraceOutput::Open(path.string());
  ASSERT_TRUE(output) << output.error();
  ASSERT_EQ(write(output->fd(), "kept\n", 5), 5);
  fs::create_directories(path / "child");
  auto finished = output->Finish(/*in_use=*/false);
  ASSERT_FALSE(finished);
  const std::string& e = finished.error();
  EXPECT_NE(e.find(path.string()), std::string::npos) << e;
  const size_t at = e.find("the trace is in '");
  ASSERT_NE(at, std::string::npos) << e;
  const std::string where = e.substr(at + 17, e.find('\'', at + 17) - (at + 17));
  EXPECT_EQ(Read(where), "kept\n");
}

TEST_F(TraceOutputTest, DirectoryIsRefused) {
  auto output = TraceOutput::Open(dir_.string());
  ASSERT_FALSE(output);
  EXPECT_NE(output.error().find("Is a directory"), std::string::npos) << output.error();
}

// stderr on a pipe: the guest sets O_NONBLOCK on the description it shares with snare (fd 2);
// snare's trace description is another one.
TEST_F(TraceOutputTest, StderrPipeGetsADescriptionOfItsOwn) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  const int saved = dup(2);
  ASSERT_EQ(dup2(p[1], 2), 2);
  auto output = TraceOutput::Open("");
  dup2(saved, 2);
  close(saved);
  ASSERT_TRUE(output) << output.error();
  fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK);
  EXPECT_EQ(fcntl(output->fd(), F_GETFL) & O_NONBLOCK, 0) << "the guest's O_NONBLOCK reached it";
  EXPECT_NE(fcntl(output->fd(), F_GETFD) & FD_CLOEXEC, 0);
  ASSERT_EQ(write(output->fd(), "x\n", 2), 2);
  char buf[4];
  EXPECT_EQ(read(p[0], buf, sizeof(buf)), 2);
  EXPECT_TRUE(output->Finish(/*in_use=*/false));
  close(p[0]);
  close(p[1]);
}

// stderr on a regular file: shared on purpose (one offset for the guest's lines and snare's).
TEST_F(TraceOutputTest, StderrFileIsShared) {
  const fs::path log = dir_ / "log";
  int f = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(f, 0);
  const int saved = dup(2);
  ASSERT_EQ(dup2(f, 2), 2);
  auto output = TraceOutput::Open("");
  ASSERT_TRUE(output) << output.error();
  ASSERT_EQ(write(2, "guest\n", 6), 6);
  ASSERT_EQ(write(output->fd(), "trace\n", 6), 6);
  ASSERT_EQ(write(2, "guest\n", 6), 6);
  dup2(saved, 2);
  close(saved);
  EXPECT_TRUE(output->Finish(/*in_use=*/false));
  close(f);
  EXPECT_EQ(Read(log), "guest\ntrace\nguest\n");
}

}  // namespace
}  // namespace snare::sentry
