#include "policy/bpf_interpreter.h"

#include <linux/audit.h>
#include <sys/syscall.h>

#include "gtest/gtest.h"

namespace snare::policy {
namespace {

seccomp_data Getppid() {
  seccomp_data data = {};
  data.nr = SYS_getppid;
  data.arch = AUDIT_ARCH_X86_64;
  return data;
}

TEST(BpfInterpreterTest, RunsAProgram) {
  std::vector<sock_filter> program = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 13),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  BpfResult r = RunBpf(program, Getppid());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.action, SECCOMP_RET_ERRNO | 13u);
  EXPECT_EQ(SeccompActionName(r.action), "ERRNO");
  EXPECT_EQ(r.steps, 3u);  // load, jump, return
  seccomp_data other = Getppid();
  other.nr = SYS_getpid;
  r = RunBpf(program, other);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(SeccompActionName(r.action), "ALLOW");
  EXPECT_EQ(r.steps, 3u);  // load, jump over the ERRNO, return
}

TEST(BpfInterpreterTest, RejectsWhatTheKernelRejects) {
  // BPF_LD|BPF_B|BPF_ABS: fine for sockets, rejected by seccomp.
  std::vector<sock_filter> program = {BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
                                      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  BpfResult r = RunBpf(program, Getppid());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("pc 0"), std::string::npos) << r.error;
  program = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0)};
  EXPECT_FALSE(RunBpf(program, Getppid()).ok);  // falls off the end
  program = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, sizeof(seccomp_data)),
             BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  EXPECT_FALSE(RunBpf(program, Getppid()).ok);  // load outside seccomp_data
  program = {BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  EXPECT_FALSE(RunBpf(program, Getppid()).ok);  // jump past the end
}

}  // namespace
}  // namespace snare::policy
