#include "kernel/guest/raw_syscall.h"

// syscall clobbers RCX and R11, which the SysV ABI lets a callee clobber anyway.
asm(R"(
  .text
  .globl snare_lab_raw_syscall0
  .type snare_lab_raw_syscall0, @function
snare_lab_raw_syscall0:
  movq %rdi, %rax
  syscall
  .globl snare_lab_raw_syscall0_return
snare_lab_raw_syscall0_return:
  ret
  .size snare_lab_raw_syscall0, .-snare_lab_raw_syscall0

  .globl snare_lab_touch
  .type snare_lab_touch, @function
snare_lab_touch:
  xorl %eax, %eax
  .globl snare_lab_touch_load
snare_lab_touch_load:
  movl (%rdi), %eax
  .globl snare_lab_touch_resume
snare_lab_touch_resume:
  ret
  .size snare_lab_touch, .-snare_lab_touch
)");
