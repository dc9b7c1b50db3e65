#include "platform/systrap/seccomp_program.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <cstddef>

#include "abi/syscall_table.h"
#include "platform/systrap/sysmsg/shared_region.h"
#include "policy/bpf_compiler.h"
#include "policy/policy_builder.h"

namespace snare::systrap {

using policy::ArgInt32Eq;
using policy::ArgNe;

std::expected<policy::PolicyTable, std::string> StubRangePolicy(const StubLayout& stub,
                                                                const policy::PolicyTable& guest) {
  constexpr policy::Disposition kKill = {policy::Action::kKill, 0};
  policy::PolicyBuilder b;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint16_t nr = abi::kSyscalls[i].nr;
    const policy::Action a = guest.entries[nr].fallback.action;
    if (a == policy::Action::kDeny || a == policy::Action::kKill) b.Kill(nr);
  }
  // ptrace could suspend a tracee's seccomp filter.
  b.Kill(SYS_ptrace).Kill(SYS_execve);
  // The stub only ever execs itself: execveat(kStubFd, kStubEmptyPath, .., AT_EMPTY_PATH).
  b.When(SYS_execveat, {ArgNe(0, kStubFd)}, kKill)
      .When(SYS_execveat, {ArgNe(1, stub.empty_path)}, kKill)
      .When(SYS_execveat, {ArgNe(4, AT_EMPTY_PATH)}, kKill);
  // The reserved fds stay what they are: no close, no dup onto them (close_range below).
  for (uint32_t fd = kFirstReservedFd; fd <= kLastReservedFd; ++fd) {
    b.When(SYS_close, {ArgInt32Eq(0, fd)}, kKill)
        .When(SYS_dup2, {ArgInt32Eq(1, fd)}, kKill)
        .When(SYS_dup3, {ArgInt32Eq(1, fd)}, kKill);
  }
  return b.TryBuild();
}

std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(
    const StubLayout& stub, const policy::PolicyTable& guest) {
  if ((stub.text_start >> 32) != ((stub.text_end - 1) >> 32)) {
    return std::unexpected(std::string("stub text crosses a 4 GiB boundary"));
  }
  auto stub_policy = StubRangePolicy(stub, guest);
  if (!stub_policy) return std::unexpected(stub_policy.error());
  auto tail = policy::CompileToBpf(*stub_policy);
  if (!tail) return tail;

  const uint32_t hi = static_cast<uint32_t>(stub.text_start >> 32);
  const uint32_t lo_start = static_cast<uint32_t>(stub.text_start);
  const uint32_t lo_last = static_cast<uint32_t>(stub.text_end - 1);
  constexpr uint32_t kArch = offsetof(seccomp_data, arch);
  constexpr uint32_t kIpLo = offsetof(seccomp_data, instruction_pointer);
  constexpr uint32_t kIpHi = kIpLo + 4;
  std::vector<sock_filter> program = {
      // Any other ABI (int 0x80, x32 is caught by the compiled part) dies.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArch),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      // Outside [text_start, text_end): trap to the stub's SIGSYS handler.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kIpHi),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kIpLo),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, lo_start, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, lo_last, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
  };
  // close_range from the stub may not cover the reserved fds. Written by hand: it needs
  // order comparisons of one argument in two rules, which libseccomp 2.5 miscompiles (the
  // policy builder refuses them).
  constexpr uint32_t kNr = offsetof(seccomp_data, nr);
  constexpr uint32_t kArg0 = offsetof(seccomp_data, args[0]);
  constexpr uint32_t kArg1 = offsetof(seccomp_data, args[1]);
  const std::vector<sock_filter> close_range = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close_range, 0, 12),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0 + 4),  // the kernel takes unsigned int:
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),   // high bits set means a trick
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg1 + 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0),
      BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, kLastReservedFd, 3, 0),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg1),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kFirstReservedFd, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  program.insert(program.end(), close_range.begin(), close_range.end());
  program.insert(program.end(), tail->begin(), tail->end());
  if (program.size() > kMaxFilter) return std::unexpected(std::string("seccomp filter too long"));
  return program;
}

}  // namespace snare::systrap
