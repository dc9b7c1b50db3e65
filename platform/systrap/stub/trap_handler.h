// The SIGSYS handler: every guest syscall arrives here, is decided (by the sentry over
// shared memory, or in-process for inproc) and then executed, answered or refused.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_TRAP_HANDLER_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_TRAP_HANDLER_H_

#include "abi/signal_frame.h"

namespace snare::stub {

// Installed with SA_SIGINFO | SA_NODEFER and an empty mask, so guest signals can interrupt
// a blocking passthrough syscall exactly as they would interrupt it natively.
extern "C" void StubSigsysHandler(int sig, abi::KSiginfo* info, abi::KUcontext* uc);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_TRAP_HANDLER_H_
