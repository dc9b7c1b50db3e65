// The stub's entry: map the shared region, protect the stub, take over SIGSYS, install the
// filter (first launch only; it survives execve), load the guest and its interpreter, and
// enter it with the stack and auxv the kernel would have built.
//
// argv: snare-stub SLOT|- TARGET_FD EXECFN GUEST_ARGV...
#include <asm-generic/errno.h>
#include <asm/unistd.h>
#include <elf.h>
#include <linux/auxvec.h>
#include <linux/mman.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>

#include "platform/systrap/stub/elf_loader.h"
#include "platform/systrap/stub/inproc_sentry.h"
#include "platform/systrap/stub/passthrough.h"
#include "platform/systrap/stub/raw_syscall.h"
#include "platform/systrap/stub/slot_client.h"
#include "platform/systrap/stub/stub_rodata.h"
#include "platform/systrap/stub/stub_runtime.h"
#include "platform/systrap/stub/trap_handler.h"
#include "platform/systrap/sysmsg/shared_region.h"

extern "C" char __executable_start[];
extern "C" char _end[];
extern "C" [[noreturn]] void StubEnterGuest(uint64_t entry, uint64_t sp);

namespace snare::stub {
namespace {

using abi::kSigsys;

using systrap::Header;

constexpr uint64_t kHwcap2Fsgsbase = 1 << 1;

void MapSharedRegion() {
  long r = Sys(__NR_mmap, static_cast<long>(systrap::kSharedBase),
               static_cast<long>(systrap::kRegionSize), PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED_NOREPLACE, systrap::kSharedFd, 0);
  if (r < 0) Fatal("cannot map the shared region (fd 1022)", nullptr, r);
  auto* h = reinterpret_cast<Header*>(systrap::kSharedBase);
  if (h->magic != systrap::kMagic || h->version != systrap::kVersion) {
    Fatal("fd 1022 is not a snare shared region");
  }
  g_stub.header = h;
  g_stub.mode = h->mode;
}

// Re-maps the stub's read-only segments from the sealed memfd as shared mappings: a forced
// write (/proc/self/mem, ptrace) cannot reach a shared read-only mapping, so the code that
// may make syscalls cannot be rewritten. Then seals the stub and the shared region.
void ProtectStub() {
  auto* eh = reinterpret_cast<const Elf64_Ehdr*>(__executable_start);
  auto* ph = reinterpret_cast<const Elf64_Phdr*>(__executable_start + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_W)) continue;
    uint64_t start = ph[i].p_vaddr & ~4095ull;
    uint64_t len = ((ph[i].p_vaddr + ph[i].p_filesz + 4095) & ~4095ull) - start;
    int prot = PROT_READ | ((ph[i].p_flags & PF_X) ? PROT_EXEC : 0);
    long r =
        Sys(__NR_mmap, static_cast<long>(start), static_cast<long>(len), prot,
            MAP_SHARED | MAP_FIXED, systrap::kStubFd, static_cast<long>(ph[i].p_offset & ~4095ull));
    if (r < 0) Fatal("cannot re-map the stub from fd 1021", nullptr, r);
  }
  uint64_t stub_end = (reinterpret_cast<uint64_t>(_end) + 4095) & ~4095ull;
  long r = Sys(462 /* mseal */, static_cast<long>(systrap::kStubBase),
               static_cast<long>(stub_end - systrap::kStubBase), 0);
  if (r < 0 && r != -ENOSYS) Fatal("mseal of the stub failed", nullptr, r);
  r = Sys(462, static_cast<long>(systrap::kSharedBase), static_cast<long>(systrap::kRegionSize), 0);
  if (r < 0 && r != -ENOSYS) Fatal("mseal of the shared region failed", nullptr, r);
}

// Both structs are sealed constants: the filter lets the stub's text change SIGSYS only to
// these (stub_rodata.h).
void InstallSigsysHandler() {
  long r = Sys(__NR_rt_sigaction, kSigsys, RodataAddress(systrap::kRodataSigsysAction), 0, 8);
  if (r < 0) Fatal("cannot install the SIGSYS handler", nullptr, r);
  Sys(__NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, RodataAddress(systrap::kRodataSigsysSet), 0, 8);
}

// Hands the filter's user-notification listener to the sentry (SCM_RIGHTS on
// kNotifySocketFd), then closes both: the guest never holds either.
void SendListener(int listener) {
  struct {
    uint64_t len;
    int32_t level, type;
    int32_t fd;
    int32_t pad;
  } control = {20 /* CMSG_LEN(sizeof(int)) */, 1 /* SOL_SOCKET */, 1 /* SCM_RIGHTS */, listener, 0};
  char byte = 'L';
  struct {
    void* base;
    uint64_t len;
  } iov = {&byte, 1};
  struct {
    void* name;
    int32_t namelen, pad;
    void* iov;
    uint64_t iovlen;
    void* control;
    uint64_t controllen;
    uint32_t flags, pad2;
  } msg = {nullptr, 0, 0, &iov, 1, &control, 24 /* CMSG_SPACE(sizeof(int)) */, 0, 0};
  long r = Sys(__NR_sendmsg, systrap::kNotifySocketFd, P(&msg), 0);
  if (r < 0) Fatal("cannot hand the seccomp listener to the sentry", nullptr, r);
  Sys(__NR_close, listener);
  Sys(__NR_close, systrap::kNotifySocketFd);
  // The exception that let this sendmsg through stays in the first filter: a second one
  // fails every later sendmsg on that fd number, from anywhere.
  r = Sys(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0,
          RodataAddress(systrap::kRodataCloseHandoverProg));
  if (r < 0) Fatal("cannot close the listener's hand-over", nullptr, r);
}

void InstallFilterOnce() {
  if (Sys(__NR_prctl, PR_GET_SECCOMP) == 2) return;  // inherited across execve
  Header* h = g_stub.header;
  if (h->filter_len == 0 || h->filter_len > systrap::kMaxFilter) Fatal("no seccomp filter");
  long r = Sys(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  if (r < 0) Fatal("PR_SET_NO_NEW_PRIVS failed", nullptr, r);
  struct {
    unsigned short len;
    sock_filter* filter;
  } prog = {static_cast<unsigned short>(h->filter_len), h->filter};
  r = Sys(__NR_seccomp, SECCOMP_SET_MODE_FILTER, h->notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0,
          P(&prog));
  if (r < 0) Fatal("cannot install the seccomp filter", nullptr, r);
  if (h->notify) SendListener(static_cast<int>(r));
}

uint64_t* FindAuxv(char** envp) {
  while (*envp) ++envp;
  return reinterpret_cast<uint64_t*>(envp + 1);
}

uint64_t AuxValue(const uint64_t* auxv, uint64_t key) {
  for (; auxv[0] != AT_NULL; auxv += 2) {
    if (auxv[0] == key) return auxv[1];
  }
  return 0;
}

[[noreturn]] void EnterGuest(char** guest_argv, long guest_argc, char** envp, uint64_t* auxv,
                             const char* execfn, const LoadedElf& exe, const LoadedElf* interp) {
  long envc = 0;
  while (envp[envc]) ++envc;
  long auxc = 0;
  while (auxv[2 * auxc] != AT_NULL) ++auxc;

  long words = 1 + (guest_argc + 1) + (envc + 1) + 2 * (auxc + 1);
  char here;
  uint64_t top = (reinterpret_cast<uint64_t>(&here) - 16384) & ~15ull;
  uint64_t* sp = reinterpret_cast<uint64_t*>((top - words * 8) & ~15ull);
  uint64_t* w = sp;
  *w++ = static_cast<uint64_t>(guest_argc);
  for (long i = 0; i < guest_argc; ++i) *w++ = reinterpret_cast<uint64_t>(guest_argv[i]);
  *w++ = 0;
  for (long i = 0; i < envc; ++i) *w++ = reinterpret_cast<uint64_t>(envp[i]);
  *w++ = 0;
  for (long i = 0; i < auxc; ++i) {
    uint64_t key = auxv[2 * i], value = auxv[2 * i + 1];
    switch (key) {
      case AT_PHDR:
        value = exe.phdr;
        break;
      case AT_PHENT:
        value = sizeof(Elf64_Phdr);
        break;
      case AT_PHNUM:
        value = exe.phnum;
        break;
      case AT_BASE:
        value = interp ? interp->bias : 0;
        break;
      case AT_ENTRY:
        value = exe.entry;
        break;
      case AT_EXECFN:
        value = reinterpret_cast<uint64_t>(execfn);
        break;
      default:
        break;
    }
    *w++ = key;
    *w++ = value;
  }
  *w++ = AT_NULL;
  *w++ = 0;
  StubEnterGuest(interp ? interp->entry : exe.entry, reinterpret_cast<uint64_t>(sp));
}

// Reads the memory-map fields prctl(PR_SET_MM_MAP) needs from /proc/self/stat.
bool ReadMmFields(uint64_t* out /* 52 entries, indexed by 1-based field number */) {
  char buf[2048];
  long fd = Sys(__NR_openat, -100, RodataAddress(systrap::kRodataSelfStat), 0);
  if (fd < 0) return false;
  long n = Sys(__NR_read, fd, P(buf), sizeof(buf) - 1);
  Sys(__NR_close, fd);
  if (n <= 0) return false;
  buf[n] = 0;
  long i = n - 1;
  while (i > 0 && buf[i] != ')') --i;  // comm may contain anything but ends at the last ')'
  int field = 2;
  for (++i; i < n && field < 51;) {
    while (i < n && buf[i] == ' ') ++i;
    ++field;
    uint64_t v = 0;
    while (i < n && buf[i] >= '0' && buf[i] <= '9')
      v = v * 10 + static_cast<uint64_t>(buf[i++] - '0');
    while (i < n && buf[i] != ' ') ++i;
    out[field] = v;
  }
  return field == 51;
}

// Makes ps, pgrep and /proc/PID/{comm,cmdline} show the guest, not the stub: comm is the
// executable's base name (as execve sets it); cmdline points at the guest's argv strings.
void NameProcess(const char* execfn, char** guest_argv, long guest_argc) {
  const char* base = execfn;
  for (const char* p = execfn; *p; ++p) {
    if (*p == '/') base = p + 1;
  }
  char comm[16] = {};
  for (int i = 0; i < 15 && base[i]; ++i) comm[i] = base[i];
  Sys(__NR_prctl, PR_SET_NAME, P(comm));
  uint64_t f[52] = {};
  if (guest_argc <= 0 || !ReadMmFields(f)) return;
  const char* last = guest_argv[guest_argc - 1];
  prctl_mm_map map = {};
  map.start_code = f[26];
  map.end_code = f[27];
  map.start_stack = f[28];
  map.start_data = f[45];
  map.end_data = f[46];
  map.start_brk = f[47];
  map.brk = static_cast<uint64_t>(Sys(__NR_brk, 0));
  map.arg_start = reinterpret_cast<uint64_t>(guest_argv[0]);
  map.arg_end = reinterpret_cast<uint64_t>(last) + strlen(last) + 1;
  map.env_start = f[50];
  map.env_end = f[51];
  map.exe_fd = static_cast<uint32_t>(-1);
  Sys(__NR_prctl, PR_SET_MM, PR_SET_MM_MAP, P(&map), sizeof(map), 0);  // best effort
}

long OpenInterpreter(const char* path) {
  long fd = Sys(__NR_openat, -100, P(path), 0 /* O_RDONLY */);
  return fd;
}

}  // namespace

extern "C" [[noreturn]] void StubMain(uint64_t* initial_sp) {
  long argc = static_cast<long>(initial_sp[0]);
  char** argv = reinterpret_cast<char**>(initial_sp + 1);
  char** envp = argv + argc + 1;
  uint64_t* auxv = FindAuxv(envp);
  if (argc < 4) Fatal("usage: snare-stub SLOT|- TARGET_FD EXECFN ARGV... (run by snare)");
  g_stub.fsgsbase = AuxValue(auxv, AT_HWCAP2) & kHwcap2Fsgsbase;
  g_stub.cpu_source = FindCpuSource();

  MapSharedRegion();
  ProtectStub();
  InstallSigsysHandler();
  if (g_stub.mode == systrap::Mode::kInproc) InprocInit();
  const systrap::Slot* slot = argv[1][0] == '-' ? ClaimSlot() : AdoptSlot(ParseDec(argv[1]));

  // On the first launch the filter goes on only once the guest is loaded: loading opens,
  // reads and maps files, which the guest's policy may deny to the guest itself. After a
  // guest execve the filter is already there and the loading is the guest's (its policy for
  // openat, pread64, mmap and mprotect applies to the exec it asked for).
  int64_t fd = ParseDec(argv[2]);
  if (fd < 0) Fatal("bad target fd");
  LoadedElf exe;
  long r = LoadElf(static_cast<int>(fd), &exe);
  if (r < 0) Fatal("cannot load", argv[3], r, r == -ENOEXEC ? 126 : 127);
  RememberExecutable(static_cast<int>(fd));
  OwnProcessTables(*slot);
  Sys(__NR_close, fd);
  LoadedElf interp;
  bool has_interp = exe.interp[0] != 0;
  if (has_interp) {
    long ifd = OpenInterpreter(exe.interp);
    if (ifd < 0) Fatal("cannot open interpreter", exe.interp, ifd);
    r = LoadElf(static_cast<int>(ifd), &interp);
    if (r < 0) Fatal("cannot load interpreter", exe.interp, r);
    Sys(__NR_close, ifd);
  }
  NameProcess(argv[3], argv + 4, argc - 4);
  InstallFilterOnce();
  EnterGuest(argv + 4, argc - 4, envp, auxv, argv[3], exe, has_interp ? &interp : nullptr);
}

}  // namespace snare::stub
