#include "sandbox/profiles.h"

#include <asm/unistd.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <cerrno>

#include "sandbox/host_boundary_rules.h"
#include "sandbox/host_view.h"

namespace snare::sandbox {
namespace {

// `value` as both limits of `resource`, or snare's own hard limit where that is lower (a
// process may not raise its hard limit).
RlimitSpec CappedRlimit(int resource, rlim_t value) {
  rlimit own;
  if (getrlimit(resource, &own) == 0 && own.rlim_max < value) value = own.rlim_max;
  return {resource, value, value};
}

uint64_t MachineMemory() {
  struct sysinfo info = {};
  if (sysinfo(&info) != 0) return 0;
  return static_cast<uint64_t>(info.totalram) * info.mem_unit;
}

// Half the machine's memory, at least 2 GiB.
rlim_t DefaultAddressSpace() {
  return std::max(rlim_t{2} << 30, static_cast<rlim_t>(MachineMemory() / 2));
}

}  // namespace

uint64_t DefaultTmpfsSize() { return std::max(uint64_t{256} << 20, MachineMemory() / 4); }

std::vector<RlimitSpec> DefaultSandboxRlimits() {
  return {CappedRlimit(RLIMIT_NPROC, kDefaultNproc), CappedRlimit(RLIMIT_NOFILE, kDefaultNofile),
          CappedRlimit(RLIMIT_AS, DefaultAddressSpace())};
}

std::expected<SandboxSpec, std::string> ProfileSpec(std::string_view name, const std::string& cwd) {
  SandboxSpec spec;
  if (name == "trace" || name == "container") {
    spec.confine = false;
    spec.engine_confined = name == "container";
    return spec;
  }
  if (name != "sandbox") {
    return std::unexpected("unknown profile '" + std::string(name) +
                           "' (choose one of: " + std::string(ProfileNames()) + ")");
  }
  spec.rlimits = DefaultSandboxRlimits();
  spec.tmpfs_size = DefaultTmpfsSize();
  spec.memory_limit = DefaultAddressSpace();
  spec.pids_limit = kDefaultNproc;
  using Kind = MountSpec::Kind;
  spec.mounts = {
      {Kind::kDev, "", "/dev"},
      {Kind::kProc, "", "/proc"},
      {Kind::kTmpfs, "", "/tmp"},
      {Kind::kTmpfs, "", "/run"},
  };
  const std::vector<MountSpec> view = HostViewMounts(CurrentHostView());
  spec.mounts.insert(spec.mounts.end(), view.begin(), view.end());
  // The working directory stays writable, unless it is the root itself. Run from /tmp or
  // /run, it is that directory instead of a private one.
  if (cwd != "/") {
    std::erase_if(spec.mounts, [&](const MountSpec& m) { return m.target == cwd; });
    spec.mounts.push_back({Kind::kBind, cwd, cwd});
  }
  return spec;
}

std::string_view ProfileNames() { return "sandbox, trace, container"; }

void AddTerminalRules(policy::PolicyBuilder* b) {
  const policy::Disposition eperm = {policy::Action::kDeny, EPERM};
  b->When(__NR_ioctl, {policy::ArgInt32Eq(1, TIOCSTI)}, eperm);
  b->When(__NR_ioctl, {policy::ArgInt32Eq(1, TIOCLINUX)}, eperm);
}

void AddConfinementRules(policy::PolicyBuilder* b) {
  using policy::Action;
  using policy::ArgMaskedEq;
  const policy::Disposition eperm = {Action::kDeny, EPERM};
  AddTerminalRules(b);
  b->When(__NR_clone, {ArgMaskedEq(0, CLONE_NEWUSER, CLONE_NEWUSER)}, eperm);
  b->When(__NR_unshare, {ArgMaskedEq(0, CLONE_NEWUSER, CLONE_NEWUSER)}, eperm);
  b->Deny(__NR_clone3, ENOSYS);
  AddHostBoundaryRules(b);
}

}  // namespace snare::sandbox
