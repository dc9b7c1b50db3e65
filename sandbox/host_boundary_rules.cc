#include "sandbox/host_boundary_rules.h"

#include <asm/unistd.h>
#include <fcntl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cerrno>

namespace snare::sandbox {
namespace {

// Linux 6.6's; newer than the system headers.
constexpr uint32_t kNrFchmodat2 = 452;
// The values Docker's default profile lets personality(2) take.
constexpr uint32_t kQueryPersonality = 0xffffffff;

}  // namespace

void AddHostBoundaryRules(policy::PolicyBuilder* b) {
  using policy::Action;
  using policy::ArgInt32Eq;
  using policy::ArgMaskedEq;
  const policy::Disposition eperm = {Action::kDeny, EPERM};
  // Rules are ANDs of checks: one rule per bit (and per way open creates a file).
  for (const uint64_t bit : {uint64_t{S_ISUID}, uint64_t{S_ISGID}}) {
    b->When(__NR_chmod, {ArgMaskedEq(1, bit, bit)}, eperm);
    b->When(__NR_fchmod, {ArgMaskedEq(1, bit, bit)}, eperm);
    b->When(__NR_fchmodat, {ArgMaskedEq(2, bit, bit)}, eperm);
    b->When(kNrFchmodat2, {ArgMaskedEq(2, bit, bit)}, eperm);
    b->When(__NR_creat, {ArgMaskedEq(1, bit, bit)}, eperm);
    b->When(__NR_mknod, {ArgMaskedEq(1, bit, bit)}, eperm);
    b->When(__NR_mknodat, {ArgMaskedEq(2, bit, bit)}, eperm);
    for (const uint64_t creates : {uint64_t{O_CREAT}, uint64_t{__O_TMPFILE}}) {
      b->When(__NR_open, {ArgMaskedEq(1, creates, creates), ArgMaskedEq(2, bit, bit)}, eperm);
      b->When(__NR_openat, {ArgMaskedEq(2, creates, creates), ArgMaskedEq(3, bit, bit)}, eperm);
    }
  }
  b->Deny(__NR_openat2, ENOSYS);

  for (const int nr : {__NR_add_key, __NR_keyctl, __NR_request_key}) b->Deny(nr, EPERM);

  b->Deny(__NR_personality, EPERM);
  for (const uint32_t allowed : {0u, uint32_t{PER_LINUX32}, uint32_t{UNAME26}, kQueryPersonality}) {
    b->When(__NR_personality, {ArgInt32Eq(0, allowed)}, {Action::kPassthrough, 0});
  }

  b->When(__NR_socket, {ArgInt32Eq(0, AF_VSOCK)}, {Action::kDeny, EAFNOSUPPORT});
}

}  // namespace snare::sandbox
