// Loads an ELF executable (and, separately, its PT_INTERP) into the stub's process the way
// the kernel's binfmt_elf would, so the stub stays mapped beside the guest.
#ifndef SNARE_PLATFORM_SYSTRAP_STUB_ELF_LOADER_H_
#define SNARE_PLATFORM_SYSTRAP_STUB_ELF_LOADER_H_

#include <stdint.h>

namespace snare::stub {

struct LoadedElf {
  uint64_t entry = 0;
  uint64_t phdr = 0;
  uint64_t phnum = 0;
  uint64_t bias = 0;
  char interp[256] = {};  // empty when the file has no PT_INTERP
};

// Returns 0, or -errno (-ENOEXEC for files that are not x86-64 ELF executables).
long LoadElf(int fd, LoadedElf* out);

// Checks the first bytes of an executable without mapping it: 0 for an x86-64 ELF
// executable, 1 for a "#!" script, -ENOEXEC otherwise.
long ClassifyExecutable(const uint8_t* head, long len);

}  // namespace snare::stub

#endif  // SNARE_PLATFORM_SYSTRAP_STUB_ELF_LOADER_H_
