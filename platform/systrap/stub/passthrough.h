// Executing a guest syscall from the stub's text, with the fixups that keep snare in
// control: SIGSYS stays unblocked and owned by the stub, snare's fds stay open, children
// get their own slot, and execve re-enters the stub.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_PASSTHROUGH_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_PASSTHROUGH_H_

#include <stdint.h>

#include "abi/signal_frame.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {

// Runs syscall nr with args on behalf of the guest thread whose registers are in uc.
// May not return (execve, exit, rt_sigreturn).
long ExecutePassthrough(uint64_t nr, const uint64_t args[6], abi::KUcontext* uc, uint32_t depth);

// The guest's program, for /proc/self/exe (which names the stub): remembered from the fd it
// was loaded from, as the guest's mount namespace names it.
void RememberExecutable(int fd);

// Makes the calling process the owner of the stub's per-process tables (the guest's signal
// restorers): at each start and in a fork child, not in a vfork child, which shares them.
// The process is the one whose thread holds `slot` (its tgid, which the claim recorded).
void OwnProcessTables(const systrap::Slot& slot);

// readlink and readlinkat of /proc/self/exe (or thread-self, or the process's own pid) answer
// with the guest's program; true with *result set when the call was one of them.
bool ReadlinkSelfExe(uint64_t nr, const uint64_t args[6], long* result);

// rt_sigaction with the guest's handler returning through the stub's restorer (SIGSYS stays
// unblocked in its mask), and the guest's own restorer in what it reads back.
long SigactionFixed(const uint64_t* a);

// rt_sigprocmask with SIGSYS left out of what it blocks or sets. (A trap's passthrough also
// writes the new mask into its signal frame, which its sigreturn restores.)
long SigprocmaskFixed(const uint64_t* a);

extern "C" void StubRestoreRt();

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_PASSTHROUGH_H_
