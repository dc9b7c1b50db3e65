// Entry points of the stub that must be written in assembly: process start, the signal
// restorer, entering the guest, rt_sigreturn on a given frame, clone with a child that may
// start on a new stack, and vfork with a child on our own.
	.text

// The kernel starts us with rsp -> argc, argv..., NULL, envp..., NULL, auxv.
	.globl _start
	.type _start, @function
_start:
	xor %ebp, %ebp
	mov %rsp, %rdi
	and $-16, %rsp
	call StubMain
	hlt

// sa_restorer for every handler the guest installs (and for SIGSYS): rt_sigreturn from
// stub text, which the filter allows.
	.globl StubRestoreRt
	.type StubRestoreRt, @function
StubRestoreRt:
	mov $15, %eax
	syscall
	hlt

// void StubEnterGuest(uint64_t entry, uint64_t sp): start the guest with a clean register
// file, as the kernel's execve would (rdx = 0: no rtld_fini).
	.globl StubEnterGuest
	.type StubEnterGuest, @function
StubEnterGuest:
	mov %rsi, %rsp
	mov %rdi, %r11
	xor %eax, %eax
	xor %ebx, %ebx
	xor %ecx, %ecx
	xor %edx, %edx
	xor %esi, %esi
	xor %edi, %edi
	xor %ebp, %ebp
	xor %r8d, %r8d
	xor %r9d, %r9d
	xor %r10d, %r10d
	xor %r12d, %r12d
	xor %r13d, %r13d
	xor %r14d, %r14d
	xor %r15d, %r15d
	jmp *%r11

// void StubSigreturnAt(void* uc): rt_sigreturn with rsp at a kernel ucontext.
	.globl StubSigreturnAt
	.type StubSigreturnAt, @function
StubSigreturnAt:
	mov %rdi, %rsp
	mov $15, %eax
	syscall
	hlt

// long StubClone(long nr, long a0, long a1, long a2, long a3, long a4, KUcontext* frame)
// A child that starts on a new stack (frame != NULL) returns through `frame`, which the
// parent wrote on that stack below the new stack pointer: its C++ side runs below the frame.
	.globl StubClone
	.type StubClone, @function
StubClone:
	push %r12
	mov 16(%rsp), %r12
	mov %rdi, %rax
	mov %rsi, %rdi
	mov %rdx, %rsi
	mov %rcx, %rdx
	mov %r8, %r10
	mov %r9, %r8
	syscall
	test %rax, %rax
	jnz 1f
	test %r12, %r12
	jz 1f
	mov %r12, %rdi
	lea -128(%r12), %rsp
	and $-16, %rsp
	call StubCloneChildOnNewStack
	hlt
1:
	pop %r12
	ret


// long StubVfork(long flags, KUcontext* frame, void* save, uint64_t top): clone(flags) for a
// child that shares our memory and runs on our stack (passthrough.cc, VforkOnOurStack). The
// bytes from our stack pointer up to `top` go to `save` before the clone and come back once
// the kernel lets the parent go on (the child has exec'd or exited); only registers, which
// the child does not share, carry us across. The child starts below `frame` and returns
// through it.
	.globl StubVfork
	.type StubVfork, @function
StubVfork:
	push %rbx
	push %r12
	push %r13
	mov %rdi, %rbx
	mov %rsi, %r12
	mov %rdx, %r13
	mov %rcx, %r9
	sub %rsp, %r9
	mov %rsp, %rsi
	mov %r13, %rdi
	mov %r9, %rcx
	cld
	rep movsb
	mov $56, %eax
	mov %rbx, %rdi
	lea -128(%r12), %rsi
	and $-16, %rsi
	xor %edx, %edx
	xor %r10d, %r10d
	xor %r8d, %r8d
	syscall
	test %rax, %rax
	jnz 1f
	mov %r12, %rdi
	call StubCloneChildOnNewStack
	hlt
1:
	mov %rax, %r8
	mov %rsp, %rdi
	mov %r13, %rsi
	mov %r9, %rcx
	cld
	rep movsb
	mov %r8, %rax
	pop %r13
	pop %r12
	pop %rbx
	ret


// Where a patched syscall site lands (site_patcher.h): its trampoline stepped over the red
// zone, put the number in %eax and the address after the site's `syscall` in %rcx, and
// jumped here. Saves what `syscall` preserves, calls StubPatchedCall(PatchedFrame*), and
// returns as `syscall` would: %rax the result, %rcx the return address, %r11 the flags.
	.text
	.globl StubPatchedEntry
	.type StubPatchedEntry, @function
StubPatchedEntry:
	pushfq
	push %rcx
	push %rdi
	push %rsi
	push %rdx
	push %r10
	push %r8
	push %r9
	push %rax
	mov %rsp, %rdi
	push %rbx
	mov %rsp, %rbx
	and $-16, %rsp
	cld
	call StubPatchedCall
	mov %rbx, %rsp
	pop %rbx
	add $8, %rsp
	pop %r9
	pop %r8
	pop %r10
	pop %rdx
	pop %rsi
	pop %rdi
	pop %rcx
	mov (%rsp), %r11
	popfq
	lea 128(%rsp), %rsp
	jmp *%rcx
	.section .note.GNU-stack,"",@progbits
