// Syscall patching, as gVisor's systrap does it: after some traps (16 unless snare run
// --patch-after says otherwise) at a `mov $nr, %eax; syscall` site in a private,
// file-backed executable mapping, the 5-byte `mov` becomes a `jmp` to a
// trampoline of the site's own, which steps over the red zone and enters the stub at
// StubPatchedEntry with no signal. The `syscall` after it stays, so a thread already past the
// `mov` still traps as before. The patched call makes the same request to the sentry as a
// trap, and the kernel checks its re-issued call against the stub-range policy, so patching
// changes the cost, not the policy. The patch lives in the (copy-on-write) code page: munmap,
// mremap and exec drop it, fork shares it. A `mov` across an aligned 16-byte block is
// rewritten in three steps around a parking `jmp .`, with membarrier(SYNC_CORE) between; one
// that starts on a block's last byte in two (rel32, then opcode; SyscallOfTornSite). glibc's
// read() has no `mov` before its `syscall`: its fast path (`cmpb; je; xor %eax, %eax;
// syscall`) is entered at its `cmpb`, which the trampoline repeats, and its path for a
// threaded process at the first of the four moves before its `xor`, which the trampoline makes.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_SITE_PATCHER_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_SITE_PATCHER_H_

#include <stdint.h>

namespace snare::stub {

// Whether a call `nr` may come through a patched site: its passthrough needs no signal
// context (no fork, clone, exec, signal stacks, no sigreturn, no exit; rt_sigaction and
// rt_sigprocmask take the trap's own fixups, SigactionFixed and SigprocmaskFixed, with no
// frame to write the new mask into).
bool Patchable(uint64_t nr);

// After a call `nr` of the guest's has run (with args, giving result): one that maps, unmaps
// or reprotects memory is noted with the range it changed (or as unknown), and the patcher
// reads /proc/self/maps again before its next patch if that range meets a cached text range,
// or if a site it finds in none may lie in it.
void NoteMappingCall(uint64_t nr, const uint64_t (&args)[6], int64_t result);

// Counts a trap at the site that ends at `rip` (just after its `syscall`) for `nr`, and at
// its header->patch-th patches it, if it has the pattern and a trampoline fits within reach;
// otherwise remembers not to try again. Not at the first: a patch takes three mprotects and a
// copy-on-write fault, and /proc/self/maps read again (20-40 us here) where a mapping call
// since the last read changed a cached range, or may have added the site's (~150 us in all in a PVM
// guest, where a patched call saves ~4 us over a trap), which the sites a program calls a few times
// while it starts never pay back (python3 -c pass ran 23% slower patched than trapped).
void TryPatchSite(uint64_t rip, uint64_t nr);

// The call a trap at `rip` (just after a `syscall`) with number `nr` stands for: a site's
// own where a thread ran its `mov` while the patcher rewrote it at a block's last byte (the
// number then is the jump's rel32, see Patch), else `nr` itself.
uint64_t SyscallOfTornSite(uint64_t rip, uint64_t nr);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_SITE_PATCHER_H_
