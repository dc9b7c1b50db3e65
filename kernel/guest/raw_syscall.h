// Hand-written instruction sequences whose addresses the checks compare against: a
// syscall with no arguments (so a SIGSYS handler can verify si_call_addr and RIP point
// exactly past our syscall instruction) and a 4-byte load (so a SIGSEGV handler can
// recognise the faulting instruction and resume after it).
#ifndef SNARE_KERNEL_GUEST_RAW_SYSCALL_H_
#define SNARE_KERNEL_GUEST_RAW_SYSCALL_H_

extern "C" {

// Executes `syscall` with RAX = nr and returns RAX.
long snare_lab_raw_syscall0(long nr);
// The address just after that syscall instruction.
extern const char snare_lab_raw_syscall0_return[];

// Loads 4 bytes from addr and returns them; a SIGSEGV handler that sees RIP ==
// snare_lab_touch_load may set RIP = snare_lab_touch_resume and choose RAX.
long snare_lab_touch(const void* addr);
extern const char snare_lab_touch_load[];
extern const char snare_lab_touch_resume[];

// Bounds of the program's text, from the linker.
extern const char __executable_start[];
extern const char etext[];

}  // extern "C"

#endif  // SNARE_KERNEL_GUEST_RAW_SYSCALL_H_
