// Freestanding errno table; see errno_name.h. Compiled into the no-libc stub too: no libc
// calls, no std::, no exceptions, and only constant-initialized data (no .init_array).
#include "abi/errno_name.h"

#include <asm-generic/errno.h>
#include <stdint.h>

namespace snare::abi {
namespace {

struct ErrnoEntry {
  int number;
  const char* name;         // nullptr: number unused on Linux x86-64
  const char* description;  // glibc 2.36 strerror() text
};

// Indexed by number - 1: kErrnos[i].number == i + 1 (checked below).
constexpr ErrnoEntry kErrnos[] = {
    {EPERM, "EPERM", "Operation not permitted"},
    {ENOENT, "ENOENT", "No such file or directory"},
    {ESRCH, "ESRCH", "No such process"},
    {EINTR, "EINTR", "Interrupted system call"},
    {EIO, "EIO", "Input/output error"},
    {ENXIO, "ENXIO", "No such device or address"},
    {E2BIG, "E2BIG", "Argument list too long"},
    {ENOEXEC, "ENOEXEC", "Exec format error"},
    {EBADF, "EBADF", "Bad file descriptor"},
    {ECHILD, "ECHILD", "No child processes"},
    {EAGAIN, "EAGAIN", "Resource temporarily unavailable"},
    {ENOMEM, "ENOMEM", "Cannot allocate memory"},
    {EACCES, "EACCES", "Permission denied"},
    {EFAULT, "EFAULT", "Bad address"},
    {ENOTBLK, "ENOTBLK", "Block device required"},
    {EBUSY, "EBUSY", "Device or resource busy"},
    {EEXIST, "EEXIST", "File exists"},
    {EXDEV, "EXDEV", "Invalid cross-device link"},
    {ENODEV, "ENODEV", "No such device"},
    {ENOTDIR, "ENOTDIR", "Not a directory"},
    {EISDIR, "EISDIR", "Is a directory"},
    {EINVAL, "EINVAL", "Invalid argument"},
    {ENFILE, "ENFILE", "Too many open files in system"},
    {EMFILE, "EMFILE", "Too many open files"},
    {ENOTTY, "ENOTTY", "Inappropriate ioctl for device"},
    {ETXTBSY, "ETXTBSY", "Text file busy"},
    {EFBIG, "EFBIG", "File too large"},
    {ENOSPC, "ENOSPC", "No space left on device"},
    {ESPIPE, "ESPIPE", "Illegal seek"},
    {EROFS, "EROFS", "Read-only file system"},
    {EMLINK, "EMLINK", "Too many links"},
    {EPIPE, "EPIPE", "Broken pipe"},
    {EDOM, "EDOM", "Numerical argument out of domain"},
    {ERANGE, "ERANGE", "Numerical result out of range"},
    {EDEADLK, "EDEADLK", "Resource deadlock avoided"},
    {ENAMETOOLONG, "ENAMETOOLONG", "File name too long"},
    {ENOLCK, "ENOLCK", "No locks available"},
    {ENOSYS, "ENOSYS", "Function not implemented"},
    {ENOTEMPTY, "ENOTEMPTY", "Directory not empty"},
    {ELOOP, "ELOOP", "Too many levels of symbolic links"},
    {41, nullptr, nullptr},  // unused on Linux x86-64
    {ENOMSG, "ENOMSG", "No message of desired type"},
    {EIDRM, "EIDRM", "Identifier removed"},
    {ECHRNG, "ECHRNG", "Channel number out of range"},
    {EL2NSYNC, "EL2NSYNC", "Level 2 not synchronized"},
    {EL3HLT, "EL3HLT", "Level 3 halted"},
    {EL3RST, "EL3RST", "Level 3 reset"},
    {ELNRNG, "ELNRNG", "Link number out of range"},
    {EUNATCH, "EUNATCH", "Protocol driver not attached"},
    {ENOCSI, "ENOCSI", "No CSI structure available"},
    {EL2HLT, "EL2HLT", "Level 2 halted"},
    {EBADE, "EBADE", "Invalid exchange"},
    {EBADR, "EBADR", "Invalid request descriptor"},
    {EXFULL, "EXFULL", "Exchange full"},
    {ENOANO, "ENOANO", "No anode"},
    {EBADRQC, "EBADRQC", "Invalid request code"},
    {EBADSLT, "EBADSLT", "Invalid slot"},
    {58, nullptr, nullptr},  // unused on Linux x86-64
    {EBFONT, "EBFONT", "Bad font file format"},
    {ENOSTR, "ENOSTR", "Device not a stream"},
    {ENODATA, "ENODATA", "No data available"},
    {ETIME, "ETIME", "Timer expired"},
    {ENOSR, "ENOSR", "Out of streams resources"},
    {ENONET, "ENONET", "Machine is not on the network"},
    {ENOPKG, "ENOPKG", "Package not installed"},
    {EREMOTE, "EREMOTE", "Object is remote"},
    {ENOLINK, "ENOLINK", "Link has been severed"},
    {EADV, "EADV", "Advertise error"},
    {ESRMNT, "ESRMNT", "Srmount error"},
    {ECOMM, "ECOMM", "Communication error on send"},
    {EPROTO, "EPROTO", "Protocol error"},
    {EMULTIHOP, "EMULTIHOP", "Multihop attempted"},
    {EDOTDOT, "EDOTDOT", "RFS specific error"},
    {EBADMSG, "EBADMSG", "Bad message"},
    {EOVERFLOW, "EOVERFLOW", "Value too large for defined data type"},
    {ENOTUNIQ, "ENOTUNIQ", "Name not unique on network"},
    {EBADFD, "EBADFD", "File descriptor in bad state"},
    {EREMCHG, "EREMCHG", "Remote address changed"},
    {ELIBACC, "ELIBACC", "Can not access a needed shared library"},
    {ELIBBAD, "ELIBBAD", "Accessing a corrupted shared library"},
    {ELIBSCN, "ELIBSCN", ".lib section in a.out corrupted"},
    {ELIBMAX, "ELIBMAX", "Attempting to link in too many shared libraries"},
    {ELIBEXEC, "ELIBEXEC", "Cannot exec a shared library directly"},
    {EILSEQ, "EILSEQ", "Invalid or incomplete multibyte or wide character"},
    {ERESTART, "ERESTART", "Interrupted system call should be restarted"},
    {ESTRPIPE, "ESTRPIPE", "Streams pipe error"},
    {EUSERS, "EUSERS", "Too many users"},
    {ENOTSOCK, "ENOTSOCK", "Socket operation on non-socket"},
    {EDESTADDRREQ, "EDESTADDRREQ", "Destination address required"},
    {EMSGSIZE, "EMSGSIZE", "Message too long"},
    {EPROTOTYPE, "EPROTOTYPE", "Protocol wrong type for socket"},
    {ENOPROTOOPT, "ENOPROTOOPT", "Protocol not available"},
    {EPROTONOSUPPORT, "EPROTONOSUPPORT", "Protocol not supported"},
    {ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT", "Socket type not supported"},
    {EOPNOTSUPP, "EOPNOTSUPP", "Operation not supported"},
    {EPFNOSUPPORT, "EPFNOSUPPORT", "Protocol family not supported"},
    {EAFNOSUPPORT, "EAFNOSUPPORT", "Address family not supported by protocol"},
    {EADDRINUSE, "EADDRINUSE", "Address already in use"},
    {EADDRNOTAVAIL, "EADDRNOTAVAIL", "Cannot assign requested address"},
    {ENETDOWN, "ENETDOWN", "Network is down"},
    {ENETUNREACH, "ENETUNREACH", "Network is unreachable"},
    {ENETRESET, "ENETRESET", "Network dropped connection on reset"},
    {ECONNABORTED, "ECONNABORTED", "Software caused connection abort"},
    {ECONNRESET, "ECONNRESET", "Connection reset by peer"},
    {ENOBUFS, "ENOBUFS", "No buffer space available"},
    {EISCONN, "EISCONN", "Transport endpoint is already connected"},
    {ENOTCONN, "ENOTCONN", "Transport endpoint is not connected"},
    {ESHUTDOWN, "ESHUTDOWN", "Cannot send after transport endpoint shutdown"},
    {ETOOMANYREFS, "ETOOMANYREFS", "Too many references: cannot splice"},
    {ETIMEDOUT, "ETIMEDOUT", "Connection timed out"},
    {ECONNREFUSED, "ECONNREFUSED", "Connection refused"},
    {EHOSTDOWN, "EHOSTDOWN", "Host is down"},
    {EHOSTUNREACH, "EHOSTUNREACH", "No route to host"},
    {EALREADY, "EALREADY", "Operation already in progress"},
    {EINPROGRESS, "EINPROGRESS", "Operation now in progress"},
    {ESTALE, "ESTALE", "Stale file handle"},
    {EUCLEAN, "EUCLEAN", "Structure needs cleaning"},
    {ENOTNAM, "ENOTNAM", "Not a XENIX named type file"},
    {ENAVAIL, "ENAVAIL", "No XENIX semaphores available"},
    {EISNAM, "EISNAM", "Is a named type file"},
    {EREMOTEIO, "EREMOTEIO", "Remote I/O error"},
    {EDQUOT, "EDQUOT", "Disk quota exceeded"},
    {ENOMEDIUM, "ENOMEDIUM", "No medium found"},
    {EMEDIUMTYPE, "EMEDIUMTYPE", "Wrong medium type"},
    {ECANCELED, "ECANCELED", "Operation canceled"},
    {ENOKEY, "ENOKEY", "Required key not available"},
    {EKEYEXPIRED, "EKEYEXPIRED", "Key has expired"},
    {EKEYREVOKED, "EKEYREVOKED", "Key has been revoked"},
    {EKEYREJECTED, "EKEYREJECTED", "Key was rejected by service"},
    {EOWNERDEAD, "EOWNERDEAD", "Owner died"},
    {ENOTRECOVERABLE, "ENOTRECOVERABLE", "State not recoverable"},
    {ERFKILL, "ERFKILL", "Operation not possible due to RF-kill"},
    {EHWPOISON, "EHWPOISON", "Memory page has hardware error"},
};

constexpr int kMaxErrno = EHWPOISON;  // 133

// Kernel-internal codes (include/linux/errno.h) that never reach user space but that a
// ptrace-based tracer sees in the syscall return register. Descriptions as strace prints them
// (ENOIOCTLCMD, which strace does not describe, uses the kernel's comment).
constexpr int kRestartBase = 512;
constexpr ErrnoEntry kKernelErrnos[] = {
    {512, "ERESTARTSYS", "To be restarted if SA_RESTART is set"},
    {513, "ERESTARTNOINTR", "To be restarted"},
    {514, "ERESTARTNOHAND", "To be restarted if no handler"},
    {515, "ENOIOCTLCMD", "No ioctl command"},
    {516, "ERESTART_RESTARTBLOCK", "Interrupted by signal"},
};

struct ErrnoAlias {
  const char* name;
  int number;
};

constexpr ErrnoAlias kAliases[] = {
    {"EWOULDBLOCK", EAGAIN},
    {"EDEADLOCK", EDEADLK},
    {"ENOTSUP", EOPNOTSUPP},  // glibc's ENOTSUP; not in the kernel header
};

template <typename T, int N>
constexpr int CountOf(const T (&)[N]) {
  return N;
}

constexpr bool ErrnoTableIsDense() {
  for (int i = 0; i < CountOf(kErrnos); ++i) {
    if (kErrnos[i].number != i + 1) return false;
  }
  for (int i = 0; i < CountOf(kKernelErrnos); ++i) {
    if (kKernelErrnos[i].number != kRestartBase + i) return false;
  }
  return true;
}

static_assert(CountOf(kErrnos) == kMaxErrno, "kErrnos must cover 1..EHWPOISON");
static_assert(ErrnoTableIsDense(), "errno tables must be sorted and gap-free by number");
static_assert(EWOULDBLOCK == EAGAIN && EDEADLOCK == EDEADLK, "x86-64 aliases");

constexpr const char kUnknownError[] = "Unknown error";

const ErrnoEntry* Find(int err) {
  if (err >= 1 && err <= kMaxErrno) {
    const ErrnoEntry* e = &kErrnos[err - 1];
    return e->name != nullptr ? e : nullptr;
  }
  if (err >= kRestartBase && err < kRestartBase + CountOf(kKernelErrnos)) {
    return &kKernelErrnos[err - kRestartBase];
  }
  return nullptr;
}

bool StrEq(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

}  // namespace

const char* ErrnoName(int err) {
  const ErrnoEntry* e = Find(err);
  return e != nullptr ? e->name : nullptr;
}

const char* ErrnoDescription(int err) {
  const ErrnoEntry* e = Find(err);
  return e != nullptr ? e->description : kUnknownError;
}

int ErrnoFromName(const char* name) {
  if (name == nullptr || name[0] != 'E') return -1;
  for (const ErrnoEntry& e : kErrnos) {
    if (e.name != nullptr && StrEq(e.name, name)) return e.number;
  }
  for (const ErrnoEntry& e : kKernelErrnos) {
    if (StrEq(e.name, name)) return e.number;
  }
  for (const ErrnoAlias& a : kAliases) {
    if (StrEq(a.name, name)) return a.number;
  }
  return -1;
}

}  // namespace snare::abi
