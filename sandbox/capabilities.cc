#include "sandbox/capabilities.h"

#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::sandbox {
namespace {

std::unexpected<std::string> Failed(const char* what) {
  return std::unexpected(std::string(what) + ": " + strerror(errno));
}

}  // namespace

std::expected<void, std::string> DropPrivileges(uid_t uid, gid_t gid) {
  constexpr unsigned kBits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                             SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                             SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
  if (cap_set_secbits(kBits) != 0) return Failed("setting securebits");
  for (cap_value_t cap = 0; cap <= CAP_LAST_CAP; ++cap) {
    if (cap_drop_bound(cap) != 0 && errno != EINVAL) return Failed("dropping the bounding set");
  }
  if (cap_reset_ambient() != 0) return Failed("clearing ambient capabilities");
  if (setresgid(gid, gid, gid) != 0) return Failed("setresgid");
  if (setresuid(uid, uid, uid) != 0) return Failed("setresuid");
  cap_t none = cap_init();
  if (!none) return Failed("cap_init");
  int rc = cap_set_proc(none);
  cap_free(none);
  if (rc != 0) return Failed("clearing capabilities");
  return {};
}

std::vector<std::string> EffectiveCapabilityNames() {
  std::vector<std::string> names;
  cap_t caps = cap_get_proc();
  if (!caps) return names;
  for (cap_value_t cap = 0; cap <= CAP_LAST_CAP; ++cap) {
    cap_flag_value_t v = CAP_CLEAR;
    if (cap_get_flag(caps, cap, CAP_EFFECTIVE, &v) != 0 || v != CAP_SET) continue;
    char* name = cap_to_name(cap);  // "cap_sys_admin"
    if (!name) continue;
    std::string upper = name;
    cap_free(name);
    for (char& c : upper) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
    names.push_back(upper);
  }
  cap_free(caps);
  return names;
}

}  // namespace snare::sandbox
