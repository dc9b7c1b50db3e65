#include "platform/systrap/stub/elf_loader.h"

#include <asm-generic/errno.h>
#include <asm/unistd.h>
#include <elf.h>
#include <linux/mman.h>

#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "platform/systrap/sysmsg/shared_region.h"

namespace snare::stub {
namespace {

constexpr uint64_t kPage = 4096;
uint64_t PageDown(uint64_t v) { return v & ~(kPage - 1); }
uint64_t PageUp(uint64_t v) { return (v + kPage - 1) & ~(kPage - 1); }

long PreadAll(int fd, void* buf, long len, long off) {
  long r = Sys(__NR_pread64, fd, P(buf), len, off);
  if (r < 0) return r;
  return r == len ? 0 : -ENOEXEC;
}

int Prot(uint32_t flags) {
  return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
         ((flags & PF_X) ? PROT_EXEC : 0);
}

bool HitsSnare(uint64_t start, uint64_t end) {
  for (const auto& r : systrap::kProtectedRanges) {
    if (start < r.end && r.start < end) return true;
  }
  return false;
}

}  // namespace

long ClassifyExecutable(const uint8_t* head, long len) {
  if (len >= 2 && head[0] == '#' && head[1] == '!') return 1;
  if (len < static_cast<long>(sizeof(Elf64_Ehdr))) return -ENOEXEC;
  Elf64_Ehdr eh;
  memcpy(&eh, head, sizeof(eh));
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return -ENOEXEC;
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) return -ENOEXEC;
  if (eh.e_machine != EM_X86_64) return -ENOEXEC;
  if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) return -ENOEXEC;
  return 0;
}

long LoadElf(int fd, LoadedElf* out) {
  Elf64_Ehdr eh;
  long r = PreadAll(fd, &eh, sizeof(eh), 0);
  if (r < 0) return r;
  if (ClassifyExecutable(reinterpret_cast<uint8_t*>(&eh), sizeof(eh)) != 0) return -ENOEXEC;
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 64) {
    return -ENOEXEC;
  }
  Elf64_Phdr ph[64];
  r = PreadAll(fd, ph, sizeof(Elf64_Phdr) * eh.e_phnum, static_cast<long>(eh.e_phoff));
  if (r < 0) return r;

  uint64_t lo = ~0ull, hi = 0;
  for (int i = 0; i < eh.e_phnum; ++i) {
    if (ph[i].p_type != PT_LOAD) continue;
    if (ph[i].p_filesz > ph[i].p_memsz) return -ENOEXEC;
    if ((ph[i].p_vaddr - ph[i].p_offset) % kPage) return -ENOEXEC;
    // Nor may the end rounded up to a page wrap: a segment left out of [lo, hi) would be
    // mapped (MAP_FIXED) past the reservation, over whatever lies there.
    constexpr uint64_t kLastPage = ~0ull - (kPage - 1);
    if (ph[i].p_vaddr > kLastPage || ph[i].p_memsz > kLastPage - ph[i].p_vaddr) return -ENOEXEC;
    if (ph[i].p_filesz) {
      // The file must hold the segment's bytes: the bss is cleared from the page of its last
      // byte, which past the end of the file is not there (SIGBUS, not an error).
      const uint64_t last = ph[i].p_offset + ph[i].p_filesz - 1;
      if (last < ph[i].p_offset) return -ENOEXEC;
      char byte;
      r = PreadAll(fd, &byte, 1, static_cast<long>(last));
      if (r < 0) return r;
    }
    if (PageDown(ph[i].p_vaddr) < lo) lo = PageDown(ph[i].p_vaddr);
    if (PageUp(ph[i].p_vaddr + ph[i].p_memsz) > hi) hi = PageUp(ph[i].p_vaddr + ph[i].p_memsz);
  }
  if (lo >= hi) return -ENOEXEC;

  // The whole image is reserved first, so that the segments' MAP_FIXED mappings replace only
  // the reservation: an ET_EXEC's addresses are the file's to choose, and as the kernel's
  // binfmt_elf does, a range already in use (the stub's stack, the vDSO) fails with EEXIST
  // instead of being mapped over.
  uint64_t bias = 0;
  if (eh.e_type == ET_EXEC && HitsSnare(lo, hi)) return -ENOMEM;
  long base =
      Sys(__NR_mmap, eh.e_type == ET_DYN ? 0 : static_cast<long>(lo), static_cast<long>(hi - lo),
          PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | (eh.e_type == ET_DYN ? 0 : MAP_FIXED_NOREPLACE),
          -1, 0);
  if (base < 0) return base;
  if (eh.e_type == ET_DYN) {
    bias = static_cast<uint64_t>(base) - lo;
  } else if (static_cast<uint64_t>(base) != lo) {  // a kernel without MAP_FIXED_NOREPLACE
    Sys(__NR_munmap, base, static_cast<long>(hi - lo));
    return -EEXIST;
  }
  if (HitsSnare(lo + bias, hi + bias)) return -ENOMEM;

  for (int i = 0; i < eh.e_phnum; ++i) {
    const Elf64_Phdr& p = ph[i];
    if (p.p_type != PT_LOAD || p.p_memsz == 0) continue;
    int prot = Prot(p.p_flags);
    uint64_t start = PageDown(p.p_vaddr + bias);
    uint64_t file_end = p.p_vaddr + bias + p.p_filesz;
    uint64_t mem_end = PageUp(p.p_vaddr + bias + p.p_memsz);
    bool has_bss = p.p_memsz > p.p_filesz;
    if (p.p_filesz) {
      long m = Sys(__NR_mmap, static_cast<long>(start), static_cast<long>(PageUp(file_end) - start),
                   prot | (has_bss ? PROT_WRITE : 0), MAP_PRIVATE | MAP_FIXED, fd,
                   static_cast<long>(PageDown(p.p_offset)));
      if (m < 0) return m;
      if (has_bss && (file_end & (kPage - 1))) {
        memset(reinterpret_cast<void*>(file_end), 0, PageUp(file_end) - file_end);
      }
      if (has_bss && !(prot & PROT_WRITE)) {
        Sys(__NR_mprotect, static_cast<long>(start), static_cast<long>(PageUp(file_end) - start),
            prot);
      }
    }
    uint64_t anon_start = p.p_filesz ? PageUp(file_end) : start;
    if (mem_end > anon_start) {
      long m =
          Sys(__NR_mmap, static_cast<long>(anon_start), static_cast<long>(mem_end - anon_start),
              prot, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
      if (m < 0) return m;
    }
  }

  out->bias = bias;
  out->entry = eh.e_entry + bias;
  out->phnum = eh.e_phnum;
  out->phdr = 0;
  out->interp[0] = 0;
  for (int i = 0; i < eh.e_phnum; ++i) {
    if (ph[i].p_type == PT_PHDR) out->phdr = ph[i].p_vaddr + bias;
    if (ph[i].p_type == PT_INTERP) {
      if (ph[i].p_filesz < 2 || ph[i].p_filesz >= sizeof(out->interp)) return -ENOEXEC;
      r = PreadAll(fd, out->interp, static_cast<long>(ph[i].p_filesz),
                   static_cast<long>(ph[i].p_offset));
      if (r < 0) return r;
      out->interp[ph[i].p_filesz - 1] = 0;
    }
  }
  if (!out->phdr) {
    for (int i = 0; i < eh.e_phnum; ++i) {
      if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= eh.e_phoff &&
          eh.e_phoff < ph[i].p_offset + ph[i].p_filesz) {
        out->phdr = ph[i].p_vaddr + bias + (eh.e_phoff - ph[i].p_offset);
      }
    }
  }
  return 0;
}

}  // namespace snare::stub
