#include "platform/systrap/stub_image.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "platform/systrap/sysmsg/shared_region.h"
#include "platform/systrap/sysmsg/stub_rodata.h"

namespace snare::systrap {
namespace {

Elf64_Ehdr Header(std::span<const uint8_t> image) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, image.data(), sizeof(eh));
  return eh;
}

std::vector<Elf64_Phdr> ProgramHeaders(std::span<const uint8_t> image) {
  Elf64_Ehdr eh = Header(image);
  std::vector<Elf64_Phdr> phdrs(eh.e_phnum);
  for (size_t i = 0; i < phdrs.size(); ++i) {
    std::memcpy(&phdrs[i], image.data() + eh.e_phoff + i * sizeof(Elf64_Phdr), sizeof(Elf64_Phdr));
  }
  return phdrs;
}

TEST(StubImageTest, IsAnX86_64Executable) {
  auto image = StubImageBytes();
  ASSERT_GE(image.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr eh = Header(image);
  EXPECT_EQ(std::memcmp(eh.e_ident, ELFMAG, SELFMAG), 0);
  EXPECT_EQ(eh.e_ident[EI_CLASS], ELFCLASS64);
  EXPECT_EQ(eh.e_ident[EI_DATA], ELFDATA2LSB);
  EXPECT_EQ(eh.e_machine, EM_X86_64);
  EXPECT_EQ(eh.e_type, ET_EXEC);  // non-PIE: linked at kStubBase
  EXPECT_LE(eh.e_phoff + uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), image.size());
  for (const Elf64_Phdr& ph : ProgramHeaders(image)) {
    EXPECT_NE(ph.p_type, PT_INTERP) << "the stub must be static";
    EXPECT_NE(ph.p_type, PT_DYNAMIC) << "the stub must be static";
  }
}

TEST(StubImageTest, Layout) {
  auto image = StubImageBytes();
  auto layout = ParseStubLayout(image);
  ASSERT_TRUE(layout) << layout.error();
  EXPECT_GE(layout->text_start, kStubBase);
  EXPECT_GT(layout->text_end, layout->text_start);
  // The seccomp filter compares the instruction pointer's words: one 4 GiB window.
  EXPECT_EQ(layout->text_start >> 32, (layout->text_end - 1) >> 32);
  EXPECT_LE(layout->text_end, layout->image_end);
  EXPECT_LE(layout->image_end, kStubBase + kStubReserve);
  // The entry point is in the text.
  Elf64_Ehdr eh = Header(image);
  EXPECT_GE(eh.e_entry, layout->text_start);
  EXPECT_LT(eh.e_entry, layout->text_end);
}

TEST(StubImageTest, EmptyPathIsAnEmptyStringInTheImage) {
  auto image = StubImageBytes();
  auto layout = ParseStubLayout(image);
  ASSERT_TRUE(layout) << layout.error();
  EXPECT_GE(layout->empty_path, kStubBase);
  EXPECT_LT(layout->empty_path, layout->image_end);

  // Find the loaded segment holding it and read the byte there.
  bool found = false;
  for (const Elf64_Phdr& ph : ProgramHeaders(image)) {
    if (ph.p_type != PT_LOAD) continue;
    if (layout->empty_path < ph.p_vaddr || layout->empty_path >= ph.p_vaddr + ph.p_memsz) continue;
    found = true;
    // Not writable: the guest must not be able to turn it into another path.
    EXPECT_EQ(ph.p_flags & PF_W, 0u) << "kStubEmptyPath is in a writable segment";
    uint64_t offset = layout->empty_path - ph.p_vaddr;
    if (offset >= ph.p_filesz) continue;  // in .bss: zero
    ASSERT_LT(ph.p_offset + offset, image.size());
    EXPECT_EQ(image[ph.p_offset + offset], 0);
  }
  EXPECT_TRUE(found) << "kStubEmptyPath 0x" << std::hex << layout->empty_path
                     << " is in no loaded segment";
}

// The constants the filter pins pointer arguments to: in a read-only segment of the image,
// with the handler and restorer inside the stub's text.
TEST(StubImageTest, RodataHoldsTheSealedConstants) {
  auto image = StubImageBytes();
  auto layout = ParseStubLayout(image);
  ASSERT_TRUE(layout) << layout.error();
  const Elf64_Phdr* holder = nullptr;
  const std::vector<Elf64_Phdr> phdrs = ProgramHeaders(image);  // holder points into it
  for (const Elf64_Phdr& ph : phdrs) {
    if (ph.p_type == PT_LOAD && layout->rodata >= ph.p_vaddr &&
        layout->rodata + sizeof(StubRodata) <= ph.p_vaddr + ph.p_filesz) {
      holder = &ph;
    }
  }
  ASSERT_NE(holder, nullptr) << "kStubRodata is in no loaded segment's file data";
  EXPECT_EQ(holder->p_flags & PF_W, 0u) << "kStubRodata is in a writable segment";
  StubRodata r;
  std::memcpy(&r, image.data() + holder->p_offset + (layout->rodata - holder->p_vaddr), sizeof(r));
  EXPECT_GE(r.sigsys_action[0], layout->text_start);
  EXPECT_LT(r.sigsys_action[0], layout->text_end);
  EXPECT_EQ(r.sigsys_action[1], 0x44000004u);  // SA_SIGINFO | SA_RESTORER | SA_NODEFER
  EXPECT_GE(r.sigsys_action[2], layout->text_start);
  EXPECT_LT(r.sigsys_action[2], layout->text_end);
  EXPECT_EQ(r.sigsys_action[3], 0u);
  for (uint64_t word : r.default_action) EXPECT_EQ(word, 0u);
  EXPECT_EQ(r.sigsys_set, 1ull << 30);
  EXPECT_STREQ(r.thread_self, "/proc/thread-self");
  EXPECT_STREQ(r.self_stat, "/proc/self/stat");
  EXPECT_EQ(r.close_handover_prog[0], 6u);
  EXPECT_EQ(r.close_handover_prog[1], layout->rodata + offsetof(StubRodata, close_handover_filter));
}

TEST(StubImageTest, RejectsMalformedImages) {
  auto image = StubImageBytes();
  std::vector<uint8_t> bytes(image.begin(), image.end());

  auto r = ParseStubLayout(std::span<const uint8_t>(bytes.data(), 16));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("malformed"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("too short"), std::string::npos) << r.error();

  r = ParseStubLayout(std::span<const uint8_t>(bytes.data(), 0));
  EXPECT_FALSE(r);

  // Headers intact, section and program headers cut off.
  r = ParseStubLayout(std::span<const uint8_t>(bytes.data(), sizeof(Elf64_Ehdr)));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("malformed"), std::string::npos) << r.error();

  // Everything but the last byte (the section headers usually come last).
  r = ParseStubLayout(std::span<const uint8_t>(bytes.data(), bytes.size() - 1));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("malformed"), std::string::npos) << r.error();

  std::vector<uint8_t> not_elf = bytes;
  not_elf[1] = 'X';
  r = ParseStubLayout(not_elf);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("not ELF"), std::string::npos) << r.error();
}

// Offsets near 2^64 must not wrap the bounds checks into reading outside the image.
TEST(StubImageDeathTest, RejectsOverflowingHeaderOffsets) {
  auto image = StubImageBytes();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t len = page + image.size();
  void* mem = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  ASSERT_EQ(mprotect(mem, page, PROT_NONE), 0);
  uint8_t* bytes = static_cast<uint8_t*>(mem) + page;
  std::memcpy(bytes, image.data(), image.size());
  Elf64_Ehdr eh = Header(image);
  eh.e_phoff = UINT64_MAX - 8;
  eh.e_phnum = 1;
  std::memcpy(bytes, &eh, sizeof(eh));
  EXPECT_EXIT(
      {
        auto r = ParseStubLayout(std::span<const uint8_t>(bytes, image.size()));
        std::_Exit(!r && r.error().find("malformed") != std::string::npos ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  munmap(mem, len);
}

TEST(StubImageTest, MemfdIsSealedAndHoldsTheImage) {
  auto fd = CreateStubMemfd();
  ASSERT_TRUE(fd) << fd.error();
  ASSERT_GE(*fd, 0);

  int seals = fcntl(*fd, F_GET_SEALS);
  ASSERT_GE(seals, 0) << strerror(errno);
  const int want = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL;
  EXPECT_EQ(seals & want, want) << std::hex << seals;

  int flags = fcntl(*fd, F_GETFD);
  EXPECT_TRUE(flags & FD_CLOEXEC);

  // Sealed: no writes, no growth, no truncation, no unsealing.
  char byte = 0;
  errno = 0;
  EXPECT_EQ(pwrite(*fd, &byte, 1, 0), -1);
  EXPECT_EQ(errno, EPERM);
  errno = 0;
  EXPECT_EQ(write(*fd, &byte, 1), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_EQ(ftruncate(*fd, 0), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_EQ(fcntl(*fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), -1);
  EXPECT_EQ(errno, EPERM);

  auto image = StubImageBytes();
  std::vector<uint8_t> contents(image.size() + 1);
  ssize_t n = pread(*fd, contents.data(), contents.size(), 0);
  ASSERT_EQ(n, static_cast<ssize_t>(image.size()));
  contents.resize(static_cast<size_t>(n));
  EXPECT_TRUE(std::equal(contents.begin(), contents.end(), image.begin()));
  close(*fd);
}

}  // namespace
}  // namespace snare::systrap
