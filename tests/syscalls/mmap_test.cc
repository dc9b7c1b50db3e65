// Memory mappings: anonymous mmap(2), munmap(2), mprotect(2), mremap(2) and
// madvise(MADV_DONTNEED).
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "gtest/gtest.h"
#include "tests/syscalls/syscall_test_util.h"

namespace snare_syscalls {
namespace {

TEST(MmapTest, AnonymousMappingIsZeroedAndWritable) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<unsigned char*>(mem);
  for (size_t i = 0; i < 4 * page; i += 512) EXPECT_EQ(bytes[i], 0) << "offset " << i;
  memset(bytes, 0xab, 4 * page);
  EXPECT_EQ(bytes[4 * page - 1], 0xab);
  EXPECT_EQ(munmap(mem, 4 * page), 0) << strerror(errno);
}

TEST(MmapTest, MunmappedRangeIsNoLongerMapped) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  unsigned char vec = 0;
  EXPECT_EQ(mincore(mem, page, &vec), 0) << strerror(errno);
  ASSERT_EQ(munmap(mem, page), 0) << strerror(errno);
  errno = 0;
  EXPECT_EQ(mincore(mem, page, &vec), -1);
  EXPECT_EQ(errno, ENOMEM) << strerror(errno);
}

TEST(MprotectTest, ReadOnlyPageKeepsDataAndFaultsOnWrite) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<volatile unsigned char*>(mem);
  bytes[0] = 0x5a;
  ASSERT_EQ(mprotect(mem, page, PROT_READ), 0) << strerror(errno);
  EXPECT_EQ(bytes[0], 0x5a);
  pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) {
    signal(SIGSEGV, SIG_DFL);
    bytes[0] = 1;  // faults
    _exit(0);
  }
  int status = WaitStatus(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGSEGV);
  EXPECT_EQ(munmap(mem, page), 0);
}

TEST(MremapTest, GrowKeepsContentsAndAddsZeroedPages) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  memset(mem, 0x3c, page);
  void* grown = mremap(mem, page, 4 * page, MREMAP_MAYMOVE);
  ASSERT_NE(grown, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<unsigned char*>(grown);
  EXPECT_EQ(bytes[0], 0x3c);
  EXPECT_EQ(bytes[page - 1], 0x3c);
  EXPECT_EQ(bytes[page], 0);
  EXPECT_EQ(bytes[4 * page - 1], 0);
  bytes[4 * page - 1] = 1;  // the new pages are writable
  EXPECT_EQ(munmap(grown, 4 * page), 0);
}

TEST(MadviseTest, DontneedZeroesAnonymousPrivatePage) {
  const size_t page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED) << strerror(errno);
  auto* bytes = static_cast<volatile unsigned char*>(mem);
  bytes[0] = 0x77;
  bytes[page - 1] = 0x77;
  ASSERT_EQ(madvise(mem, page, MADV_DONTNEED), 0) << strerror(errno);
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[page - 1], 0);
  EXPECT_EQ(munmap(mem, page), 0);
}

}  // namespace
}  // namespace snare_syscalls
