#include "sentry/program_resolver.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::sentry {
namespace {

namespace fs = std::filesystem;

class ProgramResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = fs::path(tmp ? tmp : "/tmp") /
            ("program_resolver_test." + std::to_string(getpid()) + "." +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Creates root_/name with the given bytes and mode; returns its path.
  std::string Write(const std::string& name, const std::string& bytes, mode_t mode) {
    fs::path p = root_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    EXPECT_EQ(chmod(p.c_str(), mode), 0) << p;
    return p.string();
  }

  // An ELF header for the given machine, otherwise plausible.
  static std::string ElfHeader(uint16_t machine) {
    Elf64_Ehdr eh = {};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = machine;
    eh.e_version = EV_CURRENT;
    eh.e_ehsize = sizeof(Elf64_Ehdr);
    return std::string(reinterpret_cast<const char*>(&eh), sizeof(eh));
  }

  fs::path root_;
};

TEST_F(ProgramResolverTest, MissingNameIsNotFound) {
  std::string path = (root_ / "empty").string();
  fs::create_directories(path);
  auto r = ResolveProgram("snare-no-such-command", path.c_str());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 127);
  EXPECT_EQ(r.error().message, "snare: snare-no-such-command: command not found");

  r = ResolveProgram("", path.c_str());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 127);
  EXPECT_NE(r.error().message.find("command not found"), std::string::npos);
}

TEST_F(ProgramResolverTest, MissingPathIsNotFound) {
  auto r = ResolveProgram("./nonexistent", "/bin");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 127);
  EXPECT_EQ(r.error().message, "snare: ./nonexistent: No such file or directory");

  std::string missing = (root_ / "nope" / "prog").string();
  r = ResolveProgram(missing, nullptr);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 127);
}

TEST_F(ProgramResolverTest, DirectoryCannotExecute) {
  auto r = ResolveProgram(root_.string(), nullptr);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_EQ(r.error().message, "snare: " + root_.string() + ": Is a directory");
}

TEST_F(ProgramResolverTest, FileWithoutExecuteBit) {
  std::string path = Write("plain", ElfHeader(EM_X86_64), 0644);
  auto r = ResolveProgram(path, nullptr);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_EQ(r.error().message, "snare: " + path + ": Permission denied");
}

TEST_F(ProgramResolverTest, ForeignElfIsExecFormatError) {
  std::string path = Write("aarch64", ElfHeader(EM_AARCH64), 0755);
  auto r = ResolveProgram(path, nullptr);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_NE(r.error().message.find("Exec format error"), std::string::npos) << r.error().message;

  // Neither ELF nor script.
  path = Write("text", "echo hello\n", 0755);
  r = ResolveProgram(path, nullptr);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_NE(r.error().message.find("Exec format error"), std::string::npos) << r.error().message;
}

TEST_F(ProgramResolverTest, X86_64ElfResolves) {
  std::string path = Write("x86", ElfHeader(EM_X86_64), 0755);
  auto r = ResolveProgram(path, nullptr);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, path);
}

TEST_F(ProgramResolverTest, SearchesThePathGiven) {
  std::string empty = (root_ / "empty").string();
  fs::create_directories(empty);
  std::string path = empty + ":/bin";
  auto r = ResolveProgram("sh", path.c_str());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "/bin/sh");
}

TEST_F(ProgramResolverTest, SkipsEntriesThatCannotExecute) {
  // A non-executable "sh" earlier in $PATH does not hide /bin/sh.
  Write("first/sh", ElfHeader(EM_X86_64), 0644);
  std::string path = (root_ / "first").string() + ":/bin";
  auto r = ResolveProgram("sh", path.c_str());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "/bin/sh");

  // With nothing better, the failure is the one a shell reports: 126, not 127.
  path = (root_ / "first").string();
  r = ResolveProgram("sh", path.c_str());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_EQ(r.error().message, "snare: sh: Permission denied");
}

TEST_F(ProgramResolverTest, ScriptRunsAsItsInterpreter) {
  std::string script = Write("script", "#!/bin/sh -e\necho hi\n", 0755);
  auto found = ResolveProgram(script, nullptr);
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(*found, script);

  auto r = ResolveInterpreters(script, {"script", "one", "two"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->path, "/bin/sh");
  EXPECT_EQ(r->argv, (std::vector<std::string>{"/bin/sh", "-e", script, "one", "two"}));
}

TEST_F(ProgramResolverTest, ScriptWithoutArgument) {
  std::string script = Write("script", "#!  /bin/sh  \t\n", 0755);
  auto r = ResolveInterpreters(script, {"script"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->path, "/bin/sh");
  EXPECT_EQ(r->argv, (std::vector<std::string>{"/bin/sh", script}));
}

TEST_F(ProgramResolverTest, NestedScripts) {
  std::string inner = Write("inner", "#!/bin/sh\n", 0755);
  std::string outer = Write("outer", "#!" + inner + " opt\n", 0755);
  auto r = ResolveInterpreters(outer, {"outer", "x"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->path, "/bin/sh");
  EXPECT_EQ(r->argv, (std::vector<std::string>{"/bin/sh", inner, "opt", outer, "x"}));
}

TEST_F(ProgramResolverTest, ScriptLoopsAreBounded) {
  std::string self = (root_ / "self").string();
  Write("self", "#!" + self + "\n", 0755);
  auto r = ResolveInterpreters(self, {"self"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
}

TEST_F(ProgramResolverTest, ElfIsItsOwnExecutable) {
  auto r = ResolveInterpreters("/bin/sh", {"sh", "-c", "true"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->path, "/bin/sh");
  EXPECT_EQ(r->argv, (std::vector<std::string>{"sh", "-c", "true"}));
}

TEST_F(ProgramResolverTest, MissingInterpreterIsBadInterpreter) {
  std::string script = Write("script", "#!/nonexistent/interp -x\n", 0755);
  auto r = ResolveInterpreters(script, {"script"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_EQ(r.error().message, "snare: " + script +
                                   ": /nonexistent/interp: bad interpreter: "
                                   "No such file or directory");
}

TEST_F(ProgramResolverTest, EmptyInterpreterLine) {
  std::string script = Write("script", "#!   \n", 0755);
  auto r = ResolveInterpreters(script, {"script"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_status, 126);
  EXPECT_NE(r.error().message.find("bad interpreter"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace snare::sentry
