// The uid and gid maps of a new user namespace: one id inside for one id outside, with
// setgroups denied (what an unprivileged process may write).
#ifndef SNARE_SANDBOX_ID_MAPS_H_
#define SNARE_SANDBOX_ID_MAPS_H_

#include <sys/types.h>

#include <expected>
#include <optional>
#include <string>

namespace snare::sandbox {

struct IdMap {
  uid_t inside_uid, outside_uid;
  gid_t inside_gid, outside_gid;
  // Also map the host's root: the sandbox's init (never the guest) keeps the invoking root's
  // access to host paths while it builds the guest's root. Inside, root is root_inside_uid
  // (0, unless the guest itself is to be uid 0).
  bool map_root = false;
  uid_t root_inside_uid = 0;
  gid_t root_inside_gid = 0;
};

// Writes /proc/PID/{setgroups,uid_map,gid_map}.
std::expected<void, std::string> WriteIdMaps(pid_t pid, const IdMap& map);

// The ids a guest runs as on the host: the invoking user's, or nobody's (65534) for root, so
// that running snare as root never gives a guest root's files (init keeps root: map_root).
// Inside, the guest has the same ids, or `uid`/`gid` when given (--uid 0 shows it as root
// while it stays the invoking user, or nobody, on the host).
IdMap GuestIdMap(uid_t invoking_uid, gid_t invoking_gid, std::optional<uid_t> uid = std::nullopt,
                 std::optional<gid_t> gid = std::nullopt);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_ID_MAPS_H_
