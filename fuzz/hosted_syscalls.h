// The stub's raw syscall layer (raw_syscall.h `Sys`) for stub code built hosted, in a fuzzer:
// mappings are served inside an arena of its own, and a fixed mapping or mprotect that
// reaches past what the code under test mapped itself is a bug (it would clobber memory
// it does not own: in the stub, the stub's stack or the guest's other mappings), so it
// traps. MAP_FIXED_NOREPLACE outside the arena fails with EEXIST, as over a kernel's
// occupied range.
#ifndef SNARE_FUZZ_HOSTED_SYSCALLS_H_
#define SNARE_FUZZ_HOSTED_SYSCALLS_H_

#include <cstdint>

namespace snare::fuzz {

// Where the arena lies: where ET_EXEC programs are linked (0x400000), below ASan's shadow.
inline constexpr uint64_t kArenaStart = 0x400000;
inline constexpr uint64_t kArenaSize = 512ull << 20;

// Unmaps everything of the previous input (the arena is reserved on first use).
void ResetArena();

}  // namespace snare::fuzz

#endif  // SNARE_FUZZ_HOSTED_SYSCALLS_H_
