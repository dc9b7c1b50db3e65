// Constants the stub hands to its own syscalls by pointer. They live in the stub's sealed,
// read-only data (the symbol kStubRodata), so the seccomp filter can pin a pointer argument
// to them: a guest that jumps into the stub's text can make those calls only with this data,
// never with its own (platform/systrap/seccomp_program.cc).
//
// Freestanding (the stub includes it).
#ifndef SNARE_PLATFORM_SYSTRAP_SYSMSG_STUB_RODATA_H_
#define SNARE_PLATFORM_SYSTRAP_SYSMSG_STUB_RODATA_H_

#include <stddef.h>
#include <stdint.h>

namespace snare::systrap {

struct StubRodata {
  uint64_t sigsys_action[4];   // struct kernel_sigaction: the stub's SIGSYS handler
  uint64_t default_action[4];  // SIG_DFL: how the stub dies by SIGSYS
  uint64_t sigsys_set;         // a sigset of SIGSYS alone, for SIG_UNBLOCK
  char thread_self[24];        // "/proc/thread-self", read with readlink
  char self_stat[24];          // "/proc/self/stat", opened read-only
  // --notify: a second filter, stacked once the listener is handed over, that fails every
  // later sendmsg on kNotifySocketFd (whatever the guest has put there by then).
  uint64_t close_handover_prog[2];     // struct sock_fprog: length, then the filter's address
  uint64_t close_handover_filter[6];   // struct sock_filter[6]
};

inline constexpr size_t kRodataSigsysAction = offsetof(StubRodata, sigsys_action);
inline constexpr size_t kRodataDefaultAction = offsetof(StubRodata, default_action);
inline constexpr size_t kRodataSigsysSet = offsetof(StubRodata, sigsys_set);
inline constexpr size_t kRodataThreadSelf = offsetof(StubRodata, thread_self);
inline constexpr size_t kRodataSelfStat = offsetof(StubRodata, self_stat);
inline constexpr size_t kRodataCloseHandoverProg = offsetof(StubRodata, close_handover_prog);

}  // namespace snare::systrap

#endif  // SNARE_PLATFORM_SYSTRAP_SYSMSG_STUB_RODATA_H_
