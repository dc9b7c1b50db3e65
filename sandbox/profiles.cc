#include "sandbox/profiles.h"

#include <asm/unistd.h>
#include <linux/sched.h>
#include <sys/ioctl.h>

#include <cerrno>

namespace snare::sandbox {

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
  using Kind = MountSpec::Kind;
  spec.mounts = {
      {Kind::kDev, "", "/dev"},
      {Kind::kProc, "", "/proc"},
      {Kind::kTmpfs, "", "/tmp"},
      {Kind::kTmpfs, "", "/run"},
  };
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
}

}  // namespace snare::sandbox
