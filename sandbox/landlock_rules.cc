#include "sandbox/landlock_rules.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "abi/landlock_abi.h"

namespace snare::sandbox {
namespace {

constexpr uint64_t kReadOnly =
    abi::kLandlockFsExecute | abi::kLandlockFsReadFile | abi::kLandlockFsReadDir;
constexpr uint64_t kDevices = kReadOnly | abi::kLandlockFsWriteFile | abi::kLandlockFsIoctlDev;

std::expected<void, std::string> AddPath(int ruleset, const std::string& path, uint64_t access,
                                         uint64_t handled) {
  int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return std::unexpected("landlock: cannot open " + path + ": " + strerror(errno));
  abi::LandlockPathBeneathAttr attr = {access & handled, fd};
  long rc = syscall(abi::kSysLandlockAddRule, ruleset, abi::kLandlockRulePathBeneath, &attr, 0);
  int err = errno;
  close(fd);
  if (rc != 0) return std::unexpected("landlock: rule for " + path + ": " + strerror(err));
  return {};
}

std::expected<void, std::string> AddPort(int ruleset, uint16_t port, uint64_t access) {
  abi::LandlockNetPortAttr attr = {access, port};
  if (syscall(abi::kSysLandlockAddRule, ruleset, abi::kLandlockRuleNetPort, &attr, 0) != 0) {
    return std::unexpected("landlock: rule for port " + std::to_string(port) + ": " +
                           strerror(errno));
  }
  return {};
}

}  // namespace

int LandlockAbi() {
  long abi =
      syscall(abi::kSysLandlockCreateRuleset, nullptr, 0, abi::kLandlockCreateRulesetVersion);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

std::expected<void, std::string> RestrictWithLandlock(const SandboxSpec& spec) {
  const int abi = LandlockAbi();
  if (abi == 0) {
    return std::unexpected(std::string(
        "Landlock is not available (boot with lsm=...,landlock, or use --profile=trace)"));
  }
  abi::LandlockRulesetAttr attr = {};
  attr.handled_access_fs = abi::LandlockFsRights(abi);
  const bool tcp = !spec.tcp_connect.empty() || !spec.tcp_bind.empty();
  if (abi >= 4 && tcp)
    attr.handled_access_net = abi::kLandlockNetBindTcp | abi::kLandlockNetConnectTcp;
  if (abi >= 6) attr.scoped = abi::kLandlockScopeAbstractUnixSocket | abi::kLandlockScopeSignal;
  const size_t size = abi >= 6 ? sizeof(attr) : abi >= 4 ? 16 : 8;
  int ruleset = static_cast<int>(syscall(abi::kSysLandlockCreateRuleset, &attr, size, 0));
  if (ruleset < 0) return std::unexpected(std::string("landlock: ") + strerror(errno));
  const uint64_t all = attr.handled_access_fs;
  auto rules = [&]() -> std::expected<void, std::string> {
    if (auto r = AddPath(ruleset, "/", kReadOnly, all); !r) return r;
    for (const MountSpec& m : spec.mounts) {
      uint64_t access = 0;
      switch (m.kind) {
        case MountSpec::Kind::kBind:
        case MountSpec::Kind::kTmpfs:
          access = all;
          break;
        case MountSpec::Kind::kDev:
          access = kDevices;
          break;
        case MountSpec::Kind::kProc:
          access = kReadOnly | abi::kLandlockFsWriteFile;  // /proc/self/... settings
          break;
        case MountSpec::Kind::kRoBind:
        case MountSpec::Kind::kEmptyDir:
        case MountSpec::Kind::kSymlink:
          continue;
      }
      if (auto r = AddPath(ruleset, m.target, access, all); !r) return r;
      if (m.kind == MountSpec::Kind::kDev) {  // its shm is a writable tmpfs
        if (auto r = AddPath(ruleset, m.target + "/shm", all, all); !r) return r;
      }
    }
    if (attr.handled_access_net) {
      for (uint16_t port : spec.tcp_connect) {
        if (auto r = AddPort(ruleset, port, abi::kLandlockNetConnectTcp); !r) return r;
      }
      for (uint16_t port : spec.tcp_bind) {
        if (auto r = AddPort(ruleset, port, abi::kLandlockNetBindTcp); !r) return r;
      }
    }
    if (syscall(abi::kSysLandlockRestrictSelf, ruleset, 0) != 0) {
      return std::unexpected(std::string("landlock_restrict_self: ") + strerror(errno));
    }
    return {};
  };
  auto result = rules();
  close(ruleset);
  return result;
}

}  // namespace snare::sandbox
