#include "oci/runtime_command_line.h"

#include <gtest/gtest.h>

namespace snare::oci {
namespace {

TEST(ParseRuntimeCommandLineTest, PodmansCreate) {
  auto cl = ParseRuntimeCommandLine({"--root", "/run/r", "--log=/tmp/l", "--log-format", "json",
                                     "--systemd-cgroup", "create", "--bundle", "/b", "--pid-file",
                                     "/p", "--console-socket", "/s", "--no-pivot", "abc"});
  ASSERT_TRUE(cl.has_value()) << cl.error();
  EXPECT_EQ(cl->root, "/run/r");
  EXPECT_EQ(cl->log, "/tmp/l");
  EXPECT_EQ(cl->log_format, "json");
  EXPECT_TRUE(cl->systemd_cgroup);
  EXPECT_EQ(cl->command, "create");
  EXPECT_EQ(cl->bundle, "/b");
  EXPECT_EQ(cl->id, "abc");
  EXPECT_EQ(cl->global.size(), 6u);  // forwarded as written
  EXPECT_EQ(cl->args.size(), 8u);
}

TEST(ParseRuntimeCommandLineTest, ExecWithAProcessFileOrACommand) {
  auto file = ParseRuntimeCommandLine(
      {"exec", "--process", "/p.json", "--detach", "--pid-file", "/pid", "abc"});
  ASSERT_TRUE(file.has_value()) << file.error();
  EXPECT_EQ(file->id, "abc");
  EXPECT_EQ(file->process_file, "/p.json");
  EXPECT_EQ(file->exec_command, -1);
  auto command = ParseRuntimeCommandLine({"exec", "-e", "A=1", "-t", "abc", "sh", "-c", "x"});
  ASSERT_TRUE(command.has_value()) << command.error();
  EXPECT_EQ(command->id, "abc");
  EXPECT_EQ(command->exec_command, 4);
  EXPECT_EQ(command->args[4], "sh");
}

TEST(ParseRuntimeCommandLineTest, OtherCommandsAndTheirErrors) {
  auto start = ParseRuntimeCommandLine({"start", "abc"});
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(start->command, "start");
  auto version = ParseRuntimeCommandLine({"--version"});
  ASSERT_TRUE(version.has_value());
  EXPECT_TRUE(version->version);
  EXPECT_EQ(ParseRuntimeCommandLine({"--root"}).error(), "the global option --root needs a value");
  EXPECT_EQ(ParseRuntimeCommandLine({"--frob", "start"}).error(), "unknown global option '--frob'");
  EXPECT_EQ(ParseRuntimeCommandLine({"create", "-b", "/b"}).error(),
            "create: no container id given");
}

}  // namespace
}  // namespace snare::oci
