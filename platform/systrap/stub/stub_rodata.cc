#include "platform/systrap/stub/stub_rodata.h"

#include "abi/signal_frame.h"
#include "platform/systrap/stub/passthrough.h"
#include "platform/systrap/stub/trap_handler.h"

namespace snare::stub {

// systrap::StubRodata with the handler and restorer typed as functions: their addresses are
// constant expressions, so the data is emitted fully formed into .rodata (constinit), with
// no initialiser that would have to run.
struct RodataImage {
  void (*sigsys_handler)(int, abi::KSiginfo*, abi::KUcontext*);
  uint64_t sigsys_flags;
  void (*sigsys_restorer)();
  uint64_t sigsys_mask;
  uint64_t default_action[4];
  uint64_t sigsys_set;
  char thread_self[24];
  char self_stat[24];
};

static_assert(sizeof(RodataImage) == sizeof(systrap::StubRodata));
static_assert(offsetof(RodataImage, default_action) == systrap::kRodataDefaultAction);
static_assert(offsetof(RodataImage, sigsys_set) == systrap::kRodataSigsysSet);
static_assert(offsetof(RodataImage, thread_self) == systrap::kRodataThreadSelf);
static_assert(offsetof(RodataImage, self_stat) == systrap::kRodataSelfStat);

// A read-only section of its own: holding addresses, the data would otherwise go to a
// writable one (.data.rel.ro), and GCC marks any section it names itself writable for such
// data. The trailing '#' comments out GCC's own section flags ("aw"). The stub is linked at
// a fixed address, so the linker resolves the addresses and nothing is left to relocate.
extern "C" __attribute__((
    used, aligned(64),
    section(".snare_rodata,\"a\",@progbits#"))) constinit const RodataImage kStubRodata = {
    &StubSigsysHandler,  abi::kSaSiginfo | abi::kSaRestorer | abi::kSaNodefer,
    &StubRestoreRt,      0,
    {0, 0, 0, 0},        abi::kSigsysBit,
    "/proc/thread-self", "/proc/self/stat",
};

long RodataAddress(size_t offset) {
  return reinterpret_cast<long>(&kStubRodata) + static_cast<long>(offset);
}

}  // namespace snare::stub
