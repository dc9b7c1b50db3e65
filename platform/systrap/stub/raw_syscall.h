// Raw x86-64 syscalls for the stub. Every `syscall` instruction the guest process is allowed
// to execute lives in the stub's text, so these are the only way the stub talks to the
// kernel. Returns -errno on failure, like the kernel.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_RAW_SYSCALL_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_RAW_SYSCALL_H_

#include <stdint.h>

namespace snare::stub {

inline long RawSyscall6(long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  long ret;
  register long r10 __asm__("r10") = a3;
  register long r8 __asm__("r8") = a4;
  register long r9 __asm__("r9") = a5;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}

#ifdef SNARE_STUB_HOSTED
// The hosted build of stub code for fuzzing (//fuzz:elf_loader_fuzzer) defines Sys itself,
// serving mappings inside an arena so that a fixed mapping cannot clobber the fuzzer.
long Sys(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0, long a5 = 0);
#else
inline long Sys(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                long a5 = 0) {
  return RawSyscall6(nr, a0, a1, a2, a3, a4, a5);
}
#endif

template <typename T>
inline long P(T* p) {
  return reinterpret_cast<long>(p);
}

inline uint64_t ReadTsc() {
  uint32_t lo, hi;
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

// The CPU this thread runs on: Linux keeps it in TSC_AUX (low 12 bits), which rdtscp reads.
inline uint32_t ReadCpu() {
  uint32_t lo, hi, aux;
  __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
  return aux & 0xfff;
}

// The same from rdpid, which skips rdtscp's clock read (a fifth of its cost here).
inline uint32_t ReadCpuRdpid() {
  uint64_t aux;
  __asm__ volatile("rdpid %0" : "=r"(aux));
  return static_cast<uint32_t>(aux) & 0xfff;
}

// The same from the limit of the per-CPU GDT entry Linux sets up for the vDSO's getcpu
// (GDT_ENTRY_CPUNODE, selector 15 * 8 + 3: limit = node << 12 | cpu), where neither rdpid nor
// rdtscp exists. False when the selector does not load (lsl clears ZF).
inline bool ReadCpuLsl(uint32_t* cpu) {
  uint32_t limit = 0;
  bool ok;
  __asm__ volatile("lsl %2, %0" : "+r"(limit), "=@ccz"(ok) : "r"(15u * 8 + 3));
  *cpu = limit & 0xfff;
  return ok;
}

// Whether rdpid exists (CPUID 7.0, ECX bit 22).
inline bool HasRdpid() {
  uint32_t a = 7, b, c = 0, d;
  __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
  return c & (1u << 22);
}

// Whether rdtscp exists (CPUID 0x80000001, EDX bit 27).
inline bool HasRdtscp() {
  uint32_t a = 0x80000001, b, c = 0, d;
  __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
  return d & (1u << 27);
}

inline void CpuRelax() { __asm__ volatile("pause" ::: "memory"); }

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_RAW_SYSCALL_H_
