// The stub's ELF loader (LoadElf, ClassifyExecutable), built hosted over an arena
// (hosted_syscalls.h). The input is the executable file, served from a memfd: truncated
// headers, overlapping segments, absurd alignments and sizes, interpreter paths. The loader
// must fail with -errno or load: never crash, read out of bounds or map over memory that is
// not its own.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz/hosted_syscalls.h"
#include "platform/systrap/stub/elf_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("elf-loader-fuzz", MFD_CLOEXEC);
  if (fd < 0) __builtin_trap();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    __builtin_trap();
  }
  (void)snare::stub::ClassifyExecutable(data, static_cast<long>(size));
  snare::stub::LoadedElf elf;
  const long r = snare::stub::LoadElf(fd, &elf);
  if (r > 0) __builtin_trap();  // 0 or -errno
  if (r == 0 && strnlen(elf.interp, sizeof(elf.interp)) == sizeof(elf.interp)) __builtin_trap();
  snare::fuzz::ResetArena();
  return 0;
}
