#include "sandbox/id_maps.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare::sandbox {
namespace {

constexpr uid_t kNobody = 65534;

std::expected<void, std::string> WriteProcFile(pid_t pid, const char* name,
                                               const std::string& text) {
  const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected("cannot open " + path + ": " + strerror(errno));
  ssize_t n = write(fd, text.data(), text.size());
  int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    return std::unexpected("cannot write '" + text + "' to " + path + ": " + strerror(err));
  }
  return {};
}

}  // namespace

std::expected<void, std::string> WriteIdMaps(pid_t pid, const IdMap& map) {
  if (auto r = WriteProcFile(pid, "setgroups", "deny"); !r) return r;
  const std::string uid_root = map.map_root ? std::to_string(map.root_inside_uid) + " 0 1\n" : "";
  const std::string gid_root = map.map_root ? std::to_string(map.root_inside_gid) + " 0 1\n" : "";
  if (auto r = WriteProcFile(pid, "uid_map",
                             uid_root + std::to_string(map.inside_uid) + " " +
                                 std::to_string(map.outside_uid) + " 1\n");
      !r) {
    return r;
  }
  return WriteProcFile(
      pid, "gid_map",
      gid_root + std::to_string(map.inside_gid) + " " + std::to_string(map.outside_gid) + " 1\n");
}

IdMap GuestIdMap(uid_t invoking_uid, gid_t invoking_gid, std::optional<uid_t> uid,
                 std::optional<gid_t> gid) {
  if (invoking_uid != 0) {
    // An unprivileged user may map only its own ids, each to one id inside.
    return {uid.value_or(invoking_uid), invoking_uid, gid.value_or(invoking_gid), invoking_gid};
  }
  IdMap map = {uid.value_or(kNobody), kNobody, gid.value_or(kNobody), kNobody,
               /*map_root=*/true};
  // A guest that is 0 inside leaves 0 to nobody's host id, and root moves out of its way
  // (to 65534 inside, which the guest then is not).
  if (map.inside_uid == 0) map.root_inside_uid = kNobody;
  if (map.inside_gid == 0) map.root_inside_gid = kNobody;
  return map;
}

}  // namespace snare::sandbox
