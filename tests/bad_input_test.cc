// snare's own errors: a missing program, a directory, a non-executable file, an unknown
// platform and a binary for another architecture each give the shell's exit status and
// message, and leave no snare or stub process behind.
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/proc_scan.h"
#include "tests/snare_paths.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto snare = SnareBinary();
    ASSERT_TRUE(snare.has_value()) << snare.error();
    snare_ = *snare;
    marker_ = UniqueEnvMarker("SNARE_BAD_INPUT_TEST");
  }

  // Runs `snare run FLAGS... -- PROG ARGS...` with this test's environment marker.
  util::SubprocessResult Snare(const std::vector<std::string>& flags,
                               const std::vector<std::string>& guest) {
    argv_ = {snare_, "run"};
    argv_.insert(argv_.end(), flags.begin(), flags.end());
    argv_.push_back("--");
    argv_.insert(argv_.end(), guest.begin(), guest.end());
    util::SubprocessOptions options;
    options.extra_env = {marker_};
    options.timeout = std::chrono::seconds(30);
    return util::RunSubprocess(argv_, options);
  }

  std::string Repro() const { return "reproduce: " + util::ShellQuote(ForDisplay(argv_)); }

  // No process started by this test (it carries marker_) survives, and no snare stub does.
  void ExpectNoStrayProcess() {
    std::vector<ProcessInfo> left;
    for (int i = 0; i < 50; ++i) {
      left = ProcessesWithEnv(marker_);
      if (left.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(left.empty()) << "processes left behind 5 s after snare exited:\n"
                              << DescribeProcesses(left);
    std::vector<ProcessInfo> stubs = WithEnv(SnareStubProcesses(), marker_);
    EXPECT_TRUE(stubs.empty()) << "snare-stub processes (memfd:snare-stub) left behind:\n"
                               << DescribeProcesses(stubs);
    KillProcesses(left);
  }

  std::string snare_;
  std::string marker_;
  std::vector<std::string> argv_;
};

bool WriteFile(const std::string& path, const std::string& data, mode_t mode) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  return out.good() && chmod(path.c_str(), mode) == 0;
}

// A minimal, valid-looking ELF64 executable header for AArch64 (no program headers).
std::string Aarch64ElfHeader() {
  Elf64_Ehdr h = {};
  h.e_ident[EI_MAG0] = ELFMAG0;
  h.e_ident[EI_MAG1] = ELFMAG1;
  h.e_ident[EI_MAG2] = ELFMAG2;
  h.e_ident[EI_MAG3] = ELFMAG3;
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_ident[EI_OSABI] = ELFOSABI_SYSV;
  h.e_type = ET_EXEC;
  h.e_machine = EM_AARCH64;
  h.e_version = EV_CURRENT;
  h.e_entry = 0x400078;
  h.e_phoff = sizeof(Elf64_Ehdr);
  h.e_ehsize = sizeof(Elf64_Ehdr);
  h.e_phentsize = sizeof(Elf64_Phdr);
  h.e_phnum = 0;
  return std::string(reinterpret_cast<const char*>(&h), sizeof(h)) + std::string(64, '\0');
}

TEST_F(BadInputTest, MissingProgramIs127) {
  util::SubprocessResult r = Snare({}, {"snare-no-such-program-xyz"});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.stderr_data.find("snare: snare-no-such-program-xyz: command not found"),
            std::string::npos);
  ExpectNoStrayProcess();
}

TEST_F(BadInputTest, MissingAbsolutePathIs127) {
  util::SubprocessResult r = Snare({}, {TestTmpDir() + "/does/not/exist"});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.stderr_data.find("snare:"), std::string::npos);
  ExpectNoStrayProcess();
}

TEST_F(BadInputTest, DirectoryIs126) {
  util::SubprocessResult r = Snare({}, {"/usr"});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 126);
  EXPECT_NE(r.stderr_data.find("Is a directory"), std::string::npos);
  ExpectNoStrayProcess();
}

TEST_F(BadInputTest, NonExecutableFileIs126) {
  const std::string path = TestTmpDir() + "/not-executable.sh";
  ASSERT_TRUE(WriteFile(path, "#!/bin/sh\necho should not run\n", 0644));
  util::SubprocessResult r = Snare({}, {path});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 126);
  EXPECT_NE(r.stderr_data.find("Permission denied"), std::string::npos);
  EXPECT_EQ(r.stdout_data, "");
  ExpectNoStrayProcess();
}

// `snare --version` names the revision; `snare help run` is `snare run --help`; an unknown
// command is a usage error.
TEST_F(BadInputTest, VersionAndHelp) {
  util::SubprocessResult version = util::RunSubprocess({snare_, "--version"}, {});
  EXPECT_EQ(version.status, 0) << version.Describe();
  EXPECT_EQ(version.stdout_data.rfind("snare ", 0), 0u) << version.Describe();
  EXPECT_GT(version.stdout_data.size(), std::string("snare \n").size()) << version.Describe();
  util::SubprocessResult help = util::RunSubprocess({snare_, "help", "run"}, {});
  util::SubprocessResult direct = util::RunSubprocess({snare_, "run", "--help"}, {});
  EXPECT_EQ(help.status, 0) << help.Describe();
  EXPECT_NE(help.stdout_data.find("--memory"), std::string::npos) << help.Describe();
  EXPECT_EQ(help.stdout_data, direct.stdout_data);
  util::SubprocessResult bad = util::RunSubprocess({snare_, "help", "nosuch"}, {});
  EXPECT_EQ(bad.status, 2) << bad.Describe();
  EXPECT_NE(bad.stderr_data.find("unknown command 'nosuch'"), std::string::npos) << bad.Describe();
}

TEST_F(BadInputTest, UnknownPlatformIs2) {
  util::SubprocessResult r = Snare({"--platform=bogus"}, {"/bin/true"});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_data.find("unknown platform"), std::string::npos);
  ExpectNoStrayProcess();
}

TEST_F(BadInputTest, PatchOutsideSystrapIs2) {
  util::SubprocessResult r = Snare({"--platform=inproc", "--patch"}, {"/bin/true"});
  SCOPED_TRACE(Repro() + "\n" + r.Describe());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.stderr_data.find("--patch rewrites syscall sites for systrap"), std::string::npos);
  ExpectNoStrayProcess();
}

TEST_F(BadInputTest, OtherArchitectureIs126) {
  const std::string path = TestTmpDir() + "/aarch64-binary";
  ASSERT_TRUE(WriteFile(path, Aarch64ElfHeader(), 0755));
  for (const char* platform : {"systrap", "inproc"}) {
    util::SubprocessResult r = Snare({std::string("--platform=") + platform}, {path});
    SCOPED_TRACE(Repro() + "\n" + r.Describe());
    EXPECT_EQ(r.status, 126);
    EXPECT_NE(r.stderr_data.find("Exec format error"), std::string::npos);
    ExpectNoStrayProcess();
  }
}

// The native baseline the statuses above mirror: sh reports the same codes. (Not for the
// foreign binary: dash runs a file the kernel rejects with ENOEXEC as a script.)
TEST_F(BadInputTest, ShellAgrees) {
  EXPECT_EQ(util::RunSubprocess({"sh", "-c", "snare-no-such-program-xyz"}).status, 127);
  EXPECT_EQ(util::RunSubprocess({"sh", "-c", "/usr"}).status, 126);
}

}  // namespace
}  // namespace snare::tests
