// The kernel's x86-64 signal ABI: sigaction, siginfo and the signal frame's ucontext as the
// kernel lays them out (not glibc's user-space types). Freestanding.
#ifndef SNARE_ABI_SIGNAL_FRAME_H_
#define SNARE_ABI_SIGNAL_FRAME_H_

#include <stdint.h>

namespace snare::abi {

inline constexpr int kSigsys = 31;
inline constexpr int kSysSeccomp = 1;  // si_code of a seccomp trap
inline constexpr uint64_t kSaSiginfo = 0x4;
inline constexpr uint64_t kSaRestorer = 0x04000000;
inline constexpr uint64_t kSaNodefer = 0x40000000;
inline constexpr uint64_t kSigsysBit = 1ull << (kSigsys - 1);

struct KSigaction {
  uint64_t handler;
  uint64_t flags;
  uint64_t restorer;
  uint64_t mask;
};

struct KSiginfo {
  int32_t si_signo;
  int32_t si_errno;
  int32_t si_code;
  int32_t pad;
  uint64_t call_addr;  // SIGSYS: address after the syscall instruction
  int32_t syscall;
  uint32_t arch;
  uint8_t rest[96];
};

struct KStack {
  uint64_t ss_sp;
  int32_t ss_flags;
  int32_t pad;
  uint64_t ss_size;
};
// sigaltstack's SS_AUTODISARM: a handler on the stack disarms it, so none is ever on it.
inline constexpr uint32_t kSsAutodisarm = 1u << 31;

struct KSigcontext {
  uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
  uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
  uint16_t cs, gs, fs, ss;
  uint64_t err, trapno, oldmask, cr2;
  uint64_t fpstate;
  uint64_t reserved[8];
};

struct KUcontext {
  uint64_t uc_flags;
  uint64_t uc_link;
  KStack uc_stack;
  KSigcontext mc;
  uint64_t uc_sigmask;
};

static_assert(sizeof(KSigcontext) == 256);
static_assert(sizeof(KUcontext) == 304);

// Size of the FPU/xsave area a signal frame's fpstate points to.
inline uint32_t FpstateSize(const void* fpstate) {
  auto* p = static_cast<const uint8_t*>(fpstate);
  uint32_t magic1, extended;
  __builtin_memcpy(&magic1, p + 464, 4);
  __builtin_memcpy(&extended, p + 468, 4);
  if (magic1 == 0x46505853u && extended > 512 && extended < 64 * 1024) return extended;
  return 512;
}

}  // namespace snare::abi

#endif  // SNARE_ABI_SIGNAL_FRAME_H_
