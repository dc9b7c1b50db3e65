#include "platform/systrap/stub/stub_rodata.h"

#include <asm/unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "abi/signal_frame.h"
#include "platform/systrap/stub/passthrough.h"
#include "platform/systrap/stub/trap_handler.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {

// systrap::StubRodata with the handler, the restorer and the filter typed as what they
// are: their addresses are constant expressions, so the data is emitted fully formed into
// read-only memory (constinit), with no initialiser that would have to run.
struct RodataImage {
  void (*sigsys_handler)(int, abi::KSiginfo*, abi::KUcontext*);
  uint64_t sigsys_flags;
  void (*sigsys_restorer)();
  uint64_t sigsys_mask;
  uint64_t default_action[4];
  uint64_t sigsys_set;
  char thread_self[24];
  char self_stat[24];
  struct {
    uint64_t len;
    const sock_filter* filter;
  } close_handover_prog;
  sock_filter close_handover_filter[6];
};

static_assert(sizeof(RodataImage) == sizeof(systrap::StubRodata));
static_assert(offsetof(RodataImage, default_action) == systrap::kRodataDefaultAction);
static_assert(offsetof(RodataImage, sigsys_set) == systrap::kRodataSigsysSet);
static_assert(offsetof(RodataImage, thread_self) == systrap::kRodataThreadSelf);
static_assert(offsetof(RodataImage, self_stat) == systrap::kRodataSelfStat);
static_assert(offsetof(RodataImage, close_handover_prog) == systrap::kRodataCloseHandoverProg);

// A read-only section of its own: holding addresses, the data would otherwise go to a
// writable one (.data.rel.ro), and GCC marks any section it names itself writable for such
// data. The trailing '#' comments out GCC's own section flags ("aw"). The stub is linked at
// a fixed address, so the linker resolves the addresses and nothing is left to relocate.
// clang-format off
extern "C" __attribute__((used, aligned(64), section(".snare_rodata,\"a\",@progbits#")))
constinit const RodataImage kStubRodata = {
    &StubSigsysHandler,
    abi::kSaSiginfo | abi::kSaRestorer | abi::kSaNodefer,
    &StubRestoreRt,
    0,
    {0, 0, 0, 0},
    abi::kSigsysBit,
    "/proc/thread-self",
    "/proc/self/stat",
    {6, kStubRodata.close_handover_filter},
    {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0 /* nr */),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sendmsg, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16 /* args[0], low word */),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, systrap::kNotifySocketFd, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1 /* EPERM */),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    },
};
// clang-format on

long RodataAddress(size_t offset) {
  return reinterpret_cast<long>(&kStubRodata) + static_cast<long>(offset);
}

}  // namespace snare::stub
