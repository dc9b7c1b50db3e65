#include "platform/systrap/stub_image.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

// Generated from the stub executable (BUILD.bazel: stub_image_data).
extern const unsigned char kStubImageData[];
extern const unsigned long kStubImageSize;

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U  // Linux 6.3; older kernels reject it and we retry without
#endif

namespace snare::systrap {

std::span<const uint8_t> StubImageBytes() { return {kStubImageData, kStubImageSize}; }

std::expected<StubLayout, std::string> ParseStubLayout(std::span<const uint8_t> image) {
  auto fail = [](const char* what) {
    return std::unexpected(std::string("embedded stub image is malformed: ") + what);
  };
  if (image.size() < sizeof(Elf64_Ehdr)) return fail("too short");
  Elf64_Ehdr eh;
  std::memcpy(&eh, image.data(), sizeof(eh));
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return fail("not ELF");
  auto fits = [&](uint64_t offset, uint64_t size) {
    return offset <= image.size() && size <= image.size() - offset;
  };
  if (!fits(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr))) return fail("phdrs");
  StubLayout layout;
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, image.data() + eh.e_phoff + i * sizeof(Elf64_Phdr), sizeof(ph));
    if (ph.p_type != PT_LOAD) continue;
    if (ph.p_flags & PF_X) {
      if (layout.text_start) return fail("more than one executable segment");
      layout.text_start = ph.p_vaddr;
      layout.text_end = ph.p_vaddr + ph.p_memsz;
    }
    layout.image_end = std::max(layout.image_end, ph.p_vaddr + ph.p_memsz);
  }
  if (!layout.text_start) return fail("no executable segment");
  if (!fits(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr))) return fail("shdrs");
  for (int i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, image.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof(sh));
    if (sh.sh_type != SHT_SYMTAB) continue;
    Elf64_Shdr strtab;
    if (sh.sh_link >= eh.e_shnum) return fail("symtab link");
    std::memcpy(&strtab, image.data() + eh.e_shoff + sh.sh_link * sizeof(Elf64_Shdr),
                sizeof(strtab));
    if (!fits(sh.sh_offset, sh.sh_size) || !fits(strtab.sh_offset, strtab.sh_size)) {
      return fail("symtab bounds");
    }
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, image.data() + sh.sh_offset + off, sizeof(sym));
      if (sym.st_name >= strtab.sh_size) continue;
      const char* name =
          reinterpret_cast<const char*>(image.data() + strtab.sh_offset + sym.st_name);
      size_t max = strtab.sh_size - sym.st_name;
      if (strnlen(name, max) == max) continue;
      if (std::strcmp(name, "kStubEmptyPath") == 0) layout.empty_path = sym.st_value;
      if (std::strcmp(name, "kStubRodata") == 0) layout.rodata = sym.st_value;
    }
  }
  if (!layout.empty_path) return fail("no kStubEmptyPath symbol");
  if (!layout.rodata) return fail("no kStubRodata symbol");
  return layout;
}

std::expected<int, std::string> CreateStubMemfd() {
  int fd = memfd_create("snare-stub", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
  if (fd < 0 && errno == EINVAL) fd = memfd_create("snare-stub", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return std::unexpected(std::string("memfd_create for the stub: ") + strerror(errno));
  auto bytes = StubImageBytes();
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return std::unexpected(std::string("writing the stub memfd: ") + strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) < 0) {
    close(fd);
    return std::unexpected(std::string("sealing the stub memfd: ") + strerror(errno));
  }
  return fd;
}

}  // namespace snare::systrap
