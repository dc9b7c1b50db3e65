// Calls a `mov $nr, %eax; syscall; ret` site N times (argv[1]) from a file's text (a memfd,
// mapped private and r-x: patchable), then unmaps it and calls the same bytes N times from
// anonymous memory at the same address (never patchable), then N times from a second file
// mapped after that, where the patcher's cached ranges have never seen text: getppid (110)
// from the file, getuid (102) from the anonymous copy, getgid (104) from the later file.
// Prints "ok" when every call returned what glibc's says, then "patched-file F",
// "patched-anon A" and "patched-later L" (whether each site's `mov` became a `jmp`).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kGetppidAt = 0, kGetuidAt = 16, kGetgidAt = 32;

// mov $nr, %eax; syscall; ret
void PutSite(unsigned char* at, unsigned nr) {
  const unsigned char code[] = {0xb8, static_cast<unsigned char>(nr), 0, 0, 0, 0x0f, 0x05, 0xc3};
  memcpy(at, code, sizeof(code));
}

long Call(const unsigned char* site) { return reinterpret_cast<long (*)()>(site)(); }

bool Patched(const unsigned char* site) { return site[0] == 0xe9; }

// The page `image` as a file's text (a memfd mapped private and r-x), or null.
unsigned char* MapFileText(const char* name, const unsigned char* image) {
  const int fd = memfd_create(name, 0);
  if (fd < 0 || write(fd, image, kPage) != static_cast<ssize_t>(kPage)) {
    perror("memfd");
    return nullptr;
  }
  void* mem = mmap(nullptr, kPage, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
  if (mem == MAP_FAILED) {
    perror("mmap file");
    return nullptr;
  }
  return static_cast<unsigned char*>(mem);
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 40;
  unsigned char image[kPage];
  memset(image, 0xcc, sizeof(image));
  PutSite(image + kGetppidAt, 110);
  PutSite(image + kGetuidAt, 102);
  PutSite(image + kGetgidAt, 104);
  unsigned char* site = MapFileText("remapped-site", image);
  if (!site) return 2;
  void* mem = site;
  bool ok = true;
  for (long i = 0; i < n; ++i) ok &= Call(site + kGetppidAt) == getppid();
  const bool patched_file = Patched(site + kGetppidAt);

  // The same address, now anonymous memory holding the same bytes.
  munmap(mem, kPage);
  void* anon =
      mmap(mem, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (anon != mem) {
    perror("mmap anonymous");
    return 2;
  }
  memcpy(anon, image, sizeof(image));
  mprotect(anon, kPage, PROT_READ | PROT_EXEC);
  for (long i = 0; i < n; ++i) ok &= Call(site + kGetuidAt) == static_cast<long>(getuid());
  const bool patched_anon = Patched(site + kGetuidAt);

  // Text that appears after the patcher last read the maps, away from every range it read.
  unsigned char* later_site = MapFileText("later-site", image);
  if (!later_site) return 2;
  for (long i = 0; i < n; ++i) ok &= Call(later_site + kGetgidAt) == static_cast<long>(getgid());
  printf("%s\npatched-file %d\npatched-anon %d\npatched-later %d\n", ok ? "ok" : "wrong results",
         patched_file, patched_anon, Patched(later_site + kGetgidAt));
  return 0;
}
