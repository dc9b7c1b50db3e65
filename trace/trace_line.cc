#include "trace/trace_line.h"

#include "abi/errno_name.h"
#include "abi/syscall_table.h"
#include "trace/line_writer.h"

namespace snare::trace {

using abi::ArgKind;
using abi::ErrnoDescription;
using abi::ErrnoName;
using abi::FindSyscall;
using abi::SyscallInfo;

size_t FormatTraceLine(char* buf, size_t cap, const TraceCall& call, bool has_result,
                       int64_t result, const char* annotation) {
  if (cap == 0) return 0;
  LineWriter w(buf, cap - 1);  // the last byte is kept for the newline
  w.Char('[').Dec(call.tid).Str("] ");
  const SyscallInfo* info = FindSyscall(call.nr);
  if (info) {
    w.Str(info->name);
  } else {
    w.Str("syscall_").Udec(call.nr);
  }
  w.Char('(');
  int nargs = info ? info->nargs : 6;
  int strings_used = 0;
  for (int i = 0; i < nargs; ++i) {
    if (i) w.Str(", ");
    uint64_t a = call.args[i];
    ArgKind kind = info ? info->args[i] : ArgKind::kHex;
    switch (kind) {
      case ArgKind::kInt:
      case ArgKind::kSignal:
        w.Dec(static_cast<int64_t>(a));
        break;
      case ArgKind::kFd: {
        auto fd = static_cast<int32_t>(a);
        if (fd == -100) {
          w.Str("AT_FDCWD");
        } else {
          w.Dec(fd);
        }
        break;
      }
      case ArgKind::kUint:
        w.Udec(a);
        break;
      case ArgKind::kPath:
        if (a == 0) {
          w.Str("NULL");
        } else if (strings_used < 2 && call.strings[strings_used] && call.string_max) {
          // string_max - 1 bytes at most: the copy's last byte is its terminator.
          w.Quoted(call.strings[strings_used], call.string_max - 1);
        } else {
          w.Hex(a);
        }
        ++strings_used;
        break;
      case ArgKind::kPtr:
        if (a == 0) {
          w.Str("NULL");
        } else {
          w.Hex(a);
        }
        break;
      case ArgKind::kHex:
        w.Hex(a);
        break;
    }
  }
  w.Str(") = ");
  if (!has_result) {
    w.Char('?');
  } else if (result < 0 && result >= -4095) {
    int err = static_cast<int>(-result);
    const char* name = ErrnoName(err);
    w.Str("-1 ");
    if (name) {
      w.Str(name);
    } else {
      w.Str("E").Dec(err);
    }
    w.Str(" (").Str(ErrnoDescription(err)).Char(')');
  } else if (info && (info->nr == 9 || info->nr == 12 || info->nr == 25)) {  // mmap, brk, mremap
    w.Hex(static_cast<uint64_t>(result));
  } else {
    w.Dec(result);
  }
  if (annotation) w.Str(" <").Str(annotation).Char('>');
  size_t n = w.size();
  buf[n] = '\n';
  return n + 1;
}

}  // namespace snare::trace
