#include "sandbox/init_filter.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "policy/bpf_compiler.h"
#include "policy/policy_builder.h"

namespace snare::sandbox {

std::expected<void, std::string> InstallInitFilter() {
  policy::PolicyBuilder b;
  b.SetAll({policy::Action::kKill, 0});
  for (int nr : {SYS_wait4, SYS_waitid, SYS_kill, SYS_tgkill, SYS_rt_sigaction, SYS_rt_sigprocmask,
                 SYS_rt_sigreturn, SYS_restart_syscall, SYS_exit, SYS_exit_group, SYS_write,
                 SYS_close, SYS_getpid, SYS_gettid, SYS_brk, SYS_mmap, SYS_munmap, SYS_nanosleep,
                 SYS_clock_nanosleep}) {
    b.Passthrough(static_cast<uint32_t>(nr));
  }
  auto table = b.TryBuild();
  if (!table) return std::unexpected(table.error());
  auto program = policy::CompileToBpf(*table);
  if (!program) return std::unexpected(program.error());
  sock_fprog prog = {static_cast<unsigned short>(program->size()), program->data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
    return std::unexpected(std::string("installing init's seccomp filter: ") + strerror(errno));
  }
  return {};
}

}  // namespace snare::sandbox
