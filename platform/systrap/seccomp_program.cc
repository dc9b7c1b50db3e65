#include "platform/systrap/seccomp_program.h"

#include <asm/prctl.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/mman.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/syscall.h>

#include <cstddef>
#include <vector>

#include "abi/syscall_table.h"
#include "platform/systrap/sysmsg/shared_region.h"
#include "platform/systrap/sysmsg/stub_rodata.h"
#include "policy/bpf_compiler.h"
#include "policy/policy_builder.h"

#ifndef SYS_mseal
#define SYS_mseal 462
#endif

namespace snare::systrap {
namespace {

using policy::Action;
using policy::ArgCheck;
using policy::ArgEq;
using policy::ArgGe;
using policy::ArgGt;
using policy::ArgInt32Eq;
using policy::ArgLe;
using policy::ArgMaskedEq;
using policy::ArgNe;
using policy::Disposition;
using policy::PolicyBuilder;
using policy::PolicyTable;

constexpr Disposition kAllow = {Action::kPassthrough, 0};
constexpr Disposition kKill = {Action::kKill, 0};
constexpr uint64_t kHigh32 = 0xffffffff00000000ull;

// A guest disposition as it applies to the same call made from the stub's text. Denied and
// killed calls stay so (the stub never runs them for the guest: one made there is a guest
// that took over the stub, or a forged reply). A brokered call is the sentry's to perform,
// except where the stub is the sentry (inproc).
Disposition InStubRange(Disposition d, bool stub_runs_brokered_calls) {
  switch (d.action) {
    case Action::kBroker:
      return stub_runs_brokered_calls ? kAllow : kKill;
    case Action::kTrap:
      return kKill;
    default:
      return d;
  }
}

// Whether the guest may execve at all: only then does the stub exec itself.
bool MayExec(const PolicyTable& guest) {
  for (uint32_t nr : {uint32_t{SYS_execve}, uint32_t{SYS_execveat}}) {
    const policy::SyscallEntry& e = guest.entries[nr];
    auto runs = [](Disposition d) {
      return d.action != Action::kDeny && d.action != Action::kKill;
    };
    if (runs(e.fallback)) return true;
    for (uint32_t r = e.first_rule; r < e.first_rule + e.rule_count; ++r) {
      if (runs(guest.rules[r].disposition)) return true;
    }
  }
  return false;
}

// Each reserved fd, as the kernel reads an int argument (the low 32 bits): two rules, as
// 1020 and 1021 share a mask and 1022 does not.
static_assert(kTraceFd == 1020 && kStubFd == 1021 && kSharedFd == 1022);
std::vector<std::vector<ArgCheck>> ReservedFd(uint8_t arg) {
  return {{ArgMaskedEq(arg, 0xfffffffe, 1020)}, {ArgInt32Eq(arg, 1022)}};
}

}  // namespace

std::vector<uint32_t> NotifiedSyscalls(const PolicyTable& guest) {
  std::vector<uint32_t> nrs;
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint32_t nr = abi::kSyscalls[i].nr;
    if (guest.entries[nr].fallback.action == policy::Action::kNotify) nrs.push_back(nr);
  }
  return nrs;
}

std::expected<PolicyTable, std::string> StubRangePolicy(const StubLayout& stub,
                                                        const PolicyTable& guest,
                                                        const StubRangeOptions& options) {
  PolicyBuilder b;
  const uint64_t rodata = stub.rodata;

  // Calls only the stub makes, whatever the guest's policy says of them: harmless in any
  // hands, or (execveat, close) fully pinned below.
  const uint32_t stub_owned[] = {SYS_exit,   SYS_exit_group,  SYS_rt_sigreturn, SYS_getpid,
                                 SYS_gettid, SYS_sched_yield, SYS_close};
  auto owned = [&](uint32_t nr) {
    for (uint32_t o : stub_owned) {
      if (o == nr) return true;
    }
    return nr == SYS_execve || nr == SYS_execveat || nr == SYS_ptrace;
  };

  // 1. The guest's policy, for calls the stub makes on the guest's behalf.
  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const uint32_t nr = abi::kSyscalls[i].nr;
    if (owned(nr)) continue;
    const policy::SyscallEntry& e = guest.entries[nr];
    for (uint32_t r = e.first_rule; r < e.first_rule + e.rule_count && r < guest.rule_count; ++r) {
      const policy::ArgRule& rule = guest.rules[r];
      b.When(nr, std::vector<ArgCheck>(rule.checks, rule.checks + rule.count),
             InStubRange(rule.disposition, options.stub_runs_brokered_calls));
    }
    b.Set(nr, InStubRange(e.fallback, options.stub_runs_brokered_calls));
  }
  for (uint32_t nr : stub_owned) b.Set(nr, kAllow);
  // ptrace could suspend a tracee's filter; execve would leave the stub behind.
  b.Kill(SYS_ptrace).Kill(SYS_execve).Kill(SYS_execveat);

  // 2. What no call from the stub's text may do, whatever the guest's policy allows: touch
  // the reserved fds, change SIGSYS or the GS base that finds the thread's slot.
  for (const auto& fd : ReservedFd(0)) {
    for (uint32_t nr : {SYS_close, SYS_fcntl, SYS_ioctl, SYS_ftruncate, SYS_fallocate}) {
      b.WhenFirst(nr, fd, kKill);
    }
  }
  for (const auto& fd : ReservedFd(1)) {
    b.WhenFirst(SYS_dup2, fd, kKill).WhenFirst(SYS_dup3, fd, kKill);
  }
  for (const auto& fd : ReservedFd(4)) b.WhenFirst(SYS_mmap, fd, kKill);
  // No close_range over them. The kernel takes unsigned ints: high bits set are a trick.
  b.WhenFirst(SYS_close_range, {ArgGt(0, 0xffffffffu)}, kKill)
      .WhenFirst(SYS_close_range, {ArgGt(1, 0xffffffffu)}, kKill)
      .WhenFirst(SYS_close_range, {ArgLe(0, kLastReservedFd), ArgGe(1, kFirstReservedFd)}, kKill);
  b.WhenFirst(SYS_rt_sigaction, {ArgInt32Eq(0, SIGSYS), ArgNe(1, 0)}, kKill);
  b.WhenFirst(SYS_arch_prctl, {ArgEq(0, ARCH_SET_GS)}, kKill);

  // 3. The stub's own calls, each pinned to the one thing the stub does with it. Pointer
  // arguments point into sealed read-only stub data or the shared region.
  const ArgCheck in_region = ArgMaskedEq(0, kHigh32, kSharedBase);
  b.WhenFirst(SYS_futex, {in_region}, kAllow)
      .WhenFirst(SYS_kill, {ArgInt32Eq(1, 0)}, kAllow)         // is the sentry or a child alive?
      .WhenFirst(SYS_tgkill, {ArgInt32Eq(2, SIGSYS)}, kAllow)  // dying by SIGSYS
      .WhenFirst(
          SYS_rt_sigaction,
          {ArgInt32Eq(0, SIGSYS), ArgEq(1, rodata + kRodataSigsysAction), ArgEq(2, 0), ArgEq(3, 8)},
          kAllow)
      .WhenFirst(SYS_rt_sigaction,
                 {ArgInt32Eq(0, SIGSYS), ArgEq(1, rodata + kRodataDefaultAction), ArgEq(2, 0),
                  ArgEq(3, 8)},
                 kAllow)
      .WhenFirst(
          SYS_rt_sigprocmask,
          {ArgEq(0, SIG_UNBLOCK), ArgEq(1, rodata + kRodataSigsysSet), ArgEq(2, 0), ArgEq(3, 8)},
          kAllow)
      .WhenFirst(SYS_rt_sigprocmask, {ArgEq(1, 0), ArgEq(3, 8)}, kAllow)  // reading the mask
      .WhenFirst(SYS_sigaltstack, {ArgEq(0, 0)}, kAllow)                  // reading the stack
      .WhenFirst(SYS_arch_prctl, {ArgEq(0, ARCH_SET_GS), ArgMaskedEq(1, kHigh32, kSharedBase)},
                 kAllow)
      .WhenFirst(SYS_readlink, {ArgEq(0, rodata + kRodataThreadSelf)}, kAllow)
      .WhenFirst(SYS_prctl, {ArgEq(0, PR_GET_SECCOMP)}, kAllow)
      .WhenFirst(SYS_prctl, {ArgEq(0, PR_SET_NAME)}, kAllow)
      .WhenFirst(SYS_prctl, {ArgEq(0, PR_SET_MM), ArgEq(1, PR_SET_MM_MAP)}, kAllow)
      .WhenFirst(SYS_openat,
                 {ArgInt32Eq(0, static_cast<uint32_t>(AT_FDCWD)),
                  ArgEq(1, rodata + kRodataSelfStat), ArgEq(2, O_RDONLY)},
                 kAllow)
      // Checking an exec target the stub opened.
      .WhenFirst(SYS_statx, {ArgEq(1, stub.empty_path), ArgEq(2, AT_EMPTY_PATH)}, kAllow)
      .WhenFirst(SYS_faccessat2,
                 {ArgEq(1, stub.empty_path), ArgEq(2, X_OK), ArgEq(3, AT_EMPTY_PATH | AT_EACCESS)},
                 kAllow)
      .WhenFirst(SYS_fcntl, {ArgEq(1, F_DUPFD), ArgEq(2, 3)}, kAllow)
      // Mapping the shared region, the stub's own read-only segments and inproc's fibers.
      .WhenFirst(
          SYS_mmap,
          {ArgEq(0, kSharedBase), ArgEq(1, kRegionSize), ArgEq(2, PROT_READ | PROT_WRITE),
           ArgEq(3, MAP_SHARED | MAP_FIXED_NOREPLACE), ArgInt32Eq(4, kSharedFd), ArgEq(5, 0)},
          kAllow)
      .WhenFirst(SYS_mmap,
                 {ArgMaskedEq(0, kHigh32, kStubBase), ArgMaskedEq(2, PROT_WRITE, 0),
                  ArgEq(3, MAP_SHARED | MAP_FIXED), ArgInt32Eq(4, kStubFd)},
                 kAllow)
      .WhenFirst(
          SYS_mmap,
          {ArgEq(0, kFiberBase), ArgEq(1, kFiberRegionSize), ArgEq(2, PROT_READ | PROT_WRITE),
           ArgEq(3, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE)},
          kAllow)
      .WhenFirst(SYS_mseal, {ArgEq(0, kStubBase)}, kAllow)
      .WhenFirst(SYS_mseal, {ArgEq(0, kSharedBase)}, kAllow)
      // inproc's trace lines (the sentry reads them from a pipe).
      .WhenFirst(SYS_write, {ArgInt32Eq(0, kTraceFd)}, kAllow);
  // Handing the seccomp listener to the sentry, before the guest runs (then the socket is
  // closed: a guest that sends on it later finds no fd there).
  if (!NotifiedSyscalls(guest).empty()) {
    b.WhenFirst(SYS_sendmsg, {ArgInt32Eq(0, kNotifySocketFd)}, kAllow)
        .WhenFirst(SYS_seccomp,
                   {ArgEq(0, SECCOMP_SET_MODE_FILTER), ArgEq(1, 0),
                    ArgEq(2, rodata + kRodataCloseHandoverProg)},
                   kAllow);
  }
  // The stub execs only itself, and only for a guest that may exec.
  if (MayExec(guest)) {
    b.WhenFirst(SYS_execveat,
                {ArgEq(0, kStubFd), ArgEq(1, stub.empty_path), ArgEq(4, AT_EMPTY_PATH)}, kAllow);
  }
  return b.TryBuild();
}

std::expected<std::vector<sock_filter>, std::string> BuildSeccompProgram(
    const StubLayout& stub, const PolicyTable& guest, const StubRangeOptions& options) {
  if ((stub.text_start >> 32) != ((stub.text_end - 1) >> 32)) {
    return std::unexpected(std::string("stub text crosses a 4 GiB boundary"));
  }
  auto stub_policy = StubRangePolicy(stub, guest, options);
  if (!stub_policy) return std::unexpected("the stub-range policy: " + stub_policy.error());
  auto dispatch =
      policy::CompileSyscallDispatch(*stub_policy, policy::DefaultSeccompAction(*stub_policy));
  if (!dispatch) return dispatch;

  const uint32_t hi = static_cast<uint32_t>(stub.text_start >> 32);
  const uint32_t lo_start = static_cast<uint32_t>(stub.text_start);
  const uint32_t lo_last = static_cast<uint32_t>(stub.text_end - 1);
  constexpr uint32_t kArch = offsetof(seccomp_data, arch);
  constexpr uint32_t kNr = offsetof(seccomp_data, nr);
  constexpr uint32_t kIpLo = offsetof(seccomp_data, instruction_pointer);
  constexpr uint32_t kIpHi = kIpLo + 4;
  constexpr uint32_t kX32SyscallBit = 0x40000000;
  // The guest's own calls: the notified ones go to the sentry through the kernel (the
  // arguments stay the kernel's), every other one traps to the stub's SIGSYS handler.
  const std::vector<uint32_t> notified = NotifiedSyscalls(guest);
  std::vector<sock_filter> guest_calls = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr)};
  for (size_t i = 0; i < notified.size(); ++i) {
    const uint8_t to_notify = static_cast<uint8_t>(notified.size() - i);
    guest_calls.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, notified[i], to_notify, 0));
  }
  guest_calls.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
  if (!notified.empty()) guest_calls.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF));
  if (notified.size() > 200) return std::unexpected(std::string("too many notified syscalls"));
  std::vector<sock_filter> program = {
      // Any other ABI (int 0x80) dies.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArch),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  if (policy::PassesUnconditionally(guest, SYS_rt_sigreturn)) {
    // No one needs to see it: decided by number alone, the kernel caches it and runs no
    // filter for the rt_sigreturn that ends every trap (the stub's restorer). From the guest's
    // text it gains nothing: any frame it could restore, it could reach by jumping, and a call
    // at a stub address meets the stub-range policy either way.
    program.insert(program.end(), {
                                      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr),
                                      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigreturn, 0, 1),
                                      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                                  });
  }
  program.insert(
      program.end(),
      {
          // Inside [text_start, text_end): on to the stub-range policy, past the guest block.
          BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kIpHi),
          BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 3),
          BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kIpLo),
          BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, lo_start, 0, 1),
          BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, lo_last, 0, static_cast<uint8_t>(guest_calls.size())),
      });
  program.insert(program.end(), guest_calls.begin(), guest_calls.end());
  const std::vector<sock_filter> stub_calls = {
      // From the stub: x32 dies, the rest is the stub-range policy.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kX32SyscallBit, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  program.insert(program.end(), stub_calls.begin(), stub_calls.end());
  program.insert(program.end(), dispatch->begin(), dispatch->end());
  if (program.size() > kMaxFilter) return std::unexpected(std::string("seccomp filter too long"));
  return program;
}

}  // namespace snare::systrap
