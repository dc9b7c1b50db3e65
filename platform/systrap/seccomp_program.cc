#include "platform/systrap/seccomp_program.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>

#include "platform/systrap/shared_region.h"
#include "sentry/syscall_table.h"

namespace snare::systrap {
namespace {

struct CtxDeleter {
  void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using Ctx = std::unique_ptr<void, CtxDeleter>;

std::string Err(const char* what, int rc) {
  return std::string("building the seccomp filter: ") + what + ": " + strerror(-rc);
}

// Rules for calls made from the stub's own text (default: allow).
std::expected<std::vector<sock_filter>, std::string> StubRangeProgram(const StubLayout& stub,
                                                                      const PolicyRule* rules) {
  Ctx ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return std::unexpected(std::string("seccomp_init failed"));
  int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc < 0) return std::unexpected(Err("badarch", rc));
  const uint32_t kill = SCMP_ACT_KILL_PROCESS;
  auto add = [&](int nr, unsigned count, const scmp_arg_cmp* cmps) -> int {
    return seccomp_rule_add_array(ctx.get(), kill, nr, count, cmps);
  };
  // The stub only ever execs itself: execveat(kStubFd, kStubEmptyPath, .., AT_EMPTY_PATH).
  if ((rc = add(SCMP_SYS(execve), 0, nullptr)) < 0) return std::unexpected(Err("execve", rc));
  const scmp_arg_cmp not_stub_fd[] = {SCMP_A0(SCMP_CMP_NE, kStubFd)};
  const scmp_arg_cmp not_empty_path[] = {SCMP_A1(SCMP_CMP_NE, stub.empty_path)};
  const scmp_arg_cmp not_empty_flag[] = {SCMP_A4(SCMP_CMP_NE, 0x1000 /* AT_EMPTY_PATH */)};
  for (const scmp_arg_cmp* c : {not_stub_fd, not_empty_path, not_empty_flag}) {
    if ((rc = add(SCMP_SYS(execveat), 1, c)) < 0) return std::unexpected(Err("execveat", rc));
  }
  // The reserved fds stay what they are: no close, no dup onto them, no close_range over them.
  for (uint64_t fd = kFirstReservedFd; fd <= kLastReservedFd; ++fd) {
    const scmp_arg_cmp a0[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, fd)};
    const scmp_arg_cmp a1[] = {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, fd)};
    if ((rc = add(SCMP_SYS(close), 1, a0)) < 0) return std::unexpected(Err("close", rc));
    if ((rc = add(SCMP_SYS(dup2), 1, a1)) < 0) return std::unexpected(Err("dup2", rc));
    if ((rc = add(SCMP_SYS(dup3), 1, a1)) < 0) return std::unexpected(Err("dup3", rc));
  }
  // ptrace could suspend a tracee's seccomp filter; denied calls must stay denied.
  for (int nr = 0; nr < kSyscallLimit; ++nr) {
    auto d = static_cast<Disposition>(rules[nr].disposition);
    bool forbidden = nr == SCMP_SYS(ptrace) || d == Disposition::kDeny || d == Disposition::kKill;
    if (!forbidden || !FindSyscall(static_cast<uint64_t>(nr))) continue;
    if ((rc = add(nr, 0, nullptr)) < 0 && rc != -EEXIST) {
      return std::unexpected(Err(FindSyscall(static_cast<uint64_t>(nr))->name, rc));
    }
  }

  int fd = memfd_create("snare-bpf", MFD_CLOEXEC);
  if (fd < 0) return std::unexpected(std::string("memfd_create: ") + strerror(errno));
  rc = seccomp_export_bpf(ctx.get(), fd);
  if (rc < 0) {
    close(fd);
    return std::unexpected(Err("export", rc));
  }
  off_t size = lseek(fd, 0, SEEK_END);
  std::vector<sock_filter> program(static_cast<size_t>(size) / sizeof(sock_filter));
  ssize_t n = pread(fd, program.data(), program.size() * sizeof(sock_filter), 0);
  close(fd);
  if (n != static_cast<ssize_t>(program.size() * sizeof(sock_filter))) {
    return std::unexpected(std::string("reading back the exported filter failed"));
  }
  return program;
}

}  // namespace

std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(const StubLayout& stub,
                                                                         const PolicyRule* rules) {
  if ((stub.text_start >> 32) != ((stub.text_end - 1) >> 32)) {
    return std::unexpected(std::string("stub text crosses a 4 GiB boundary"));
  }
  auto tail = StubRangeProgram(stub, rules);
  if (!tail) return tail;

  const uint32_t hi = static_cast<uint32_t>(stub.text_start >> 32);
  const uint32_t lo_start = static_cast<uint32_t>(stub.text_start);
  const uint32_t lo_last = static_cast<uint32_t>(stub.text_end - 1);
  constexpr uint32_t kArch = offsetof(seccomp_data, arch);
  constexpr uint32_t kIpLo = offsetof(seccomp_data, instruction_pointer);
  constexpr uint32_t kIpHi = kIpLo + 4;
  std::vector<sock_filter> program = {
      // Any other ABI (int 0x80, x32 is caught by libseccomp's part) dies.
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
  // close_range from the stub may not cover the reserved fds. Written by hand: libseccomp
  // 2.5.4 miscompiles two rules that compare the same argument with different operators.
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
