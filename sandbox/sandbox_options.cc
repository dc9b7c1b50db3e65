#include "sandbox/sandbox_options.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "sandbox/profiles.h"
#include "util/host_path.h"

namespace snare::sandbox {
namespace {

struct RlimitName {
  const char* name;
  int resource;
};

constexpr RlimitName kRlimits[] = {
    {"nofile", RLIMIT_NOFILE},
    {"nproc", RLIMIT_NPROC},
    {"as", RLIMIT_AS},
    {"cpu", RLIMIT_CPU},
    {"fsize", RLIMIT_FSIZE},
    {"core", RLIMIT_CORE},
    {"stack", RLIMIT_STACK},
    {"data", RLIMIT_DATA},
    {"memlock", RLIMIT_MEMLOCK},
    {"locks", RLIMIT_LOCKS},
    {"sigpending", RLIMIT_SIGPENDING},
    {"msgqueue", RLIMIT_MSGQUEUE},
    {"nice", RLIMIT_NICE},
    {"rtprio", RLIMIT_RTPRIO},
    {"rttime", RLIMIT_RTTIME},
    {"rss", RLIMIT_RSS},
};

constexpr double kMaxTimeLimitS = 365.0 * 24 * 3600;
constexpr const char* kTimeLimitHint =
    "seconds of wall-clock time, more than 0 and at most a year, e.g. 30 or 0.5";

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::expected<rlim_t, std::string> ParseRlimitValue(std::string_view value) {
  if (value == "unlimited" || value == "infinity") return RLIM_INFINITY;
  if (value.empty() || !isdigit(static_cast<unsigned char>(value[0]))) {
    return std::unexpected("bad limit " + Quoted(value) +
                           " (a number, optionally with K, M, G or T, or unlimited)");
  }
  const std::string text(value);
  char* end;
  errno = 0;
  unsigned long long n = strtoull(text.c_str(), &end, 10);
  int shift = 0;
  switch (*end) {
    case 'k':
    case 'K':
      shift = 10;
      ++end;
      break;
    case 'm':
    case 'M':
      shift = 20;
      ++end;
      break;
    case 'g':
    case 'G':
      shift = 30;
      ++end;
      break;
    case 't':
    case 'T':
      shift = 40;
      ++end;
      break;
    default:
      break;
  }
  if (*end || errno || (shift && n > (ULLONG_MAX >> shift))) {
    return std::unexpected("bad limit " + Quoted(value) +
                           " (a number, optionally with K, M, G or T, or unlimited)");
  }
  return static_cast<rlim_t>(n << shift);
}

std::string RlimitText(rlim_t v) {
  return v == RLIM_INFINITY ? "unlimited" : std::to_string(static_cast<unsigned long long>(v));
}

}  // namespace

void Overlay(const SandboxOptions& later, SandboxOptions* base) {
  if (later.profile) base->profile = later.profile;
  if (later.root) base->root = later.root;
  base->mounts.insert(base->mounts.end(), later.mounts.begin(), later.mounts.end());
  if (later.network) base->network = later.network;
  if (later.uid) base->uid = later.uid;
  if (later.gid) base->gid = later.gid;
  if (later.hostname) base->hostname = later.hostname;
  base->rlimits.insert(base->rlimits.end(), later.rlimits.begin(), later.rlimits.end());
  if (later.time_limit_s) base->time_limit_s = later.time_limit_s;
  if (later.tmpfs_size) base->tmpfs_size = later.tmpfs_size;
  if (later.memory) base->memory = later.memory;
  if (later.pids) base->pids = later.pids;
  base->keep_fds.insert(base->keep_fds.end(), later.keep_fds.begin(), later.keep_fds.end());
  base->syscall_rules.insert(base->syscall_rules.end(), later.syscall_rules.begin(),
                             later.syscall_rules.end());
}

std::expected<SandboxSpec, std::string> BuildSandboxSpec(const SandboxOptions& o,
                                                         const std::string& cwd) {
  const std::string profile(o.profile.value_or(std::string(kDefaultProfile)));
  auto spec = ProfileSpec(profile, cwd);
  if (!spec) return spec;
  if (!spec->confine) {
    // The flag and the policy-file key of the first option that needs a sandbox.
    const std::pair<const char*, const char*> confined_only =
        !o.mounts.empty()     ? std::pair{"--ro-bind, --bind, --tmpfs, --dev and --proc", "mounts"}
        : o.root              ? std::pair{"--root", "root"}
        : o.network           ? std::pair{"--net", "net"}
        : o.uid               ? std::pair{"--uid", "uid"}
        : o.gid               ? std::pair{"--gid", "gid"}
        : o.hostname          ? std::pair{"--hostname", "hostname"}
        : o.tmpfs_size        ? std::pair{"--tmpfs-size", "tmpfs_size"}
        : o.memory            ? std::pair{"--memory", "memory"}
        : o.pids              ? std::pair{"--pids", "pids"}
        : !o.keep_fds.empty() ? std::pair{"--keep-fd", "keep_fds"}
                              : std::pair{"", ""};
    if (*confined_only.first) {
      return std::unexpected(std::string(confined_only.first) + " (\"" + confined_only.second +
                             "\" in a policy file): needs a sandbox, but --profile=" + profile +
                             " does not confine the guest (drop one of them)");
    }
  }
  if (o.root && *o.root != "/") {
    // Another root: the profile's /dev, /proc and /tmp go on it (ParseRoot checked they
    // exist), its other mounts where the root has a place for them; the working directory
    // is the host's, so it is not bound (the guest starts in it when the root has it, else /).
    spec->root = *o.root;
    std::vector<MountSpec> kept;
    for (const MountSpec& m : spec->mounts) {
      // The host view's mounts are about the host's root.
      const bool own =
          m.target == "/dev" || m.target == "/proc" || m.target == "/tmp" || m.target == "/run";
      if (!own || !IsDirectory(*o.root + m.target)) continue;
      kept.push_back(m);
    }
    spec->mounts = std::move(kept);
  }
  spec->mounts.insert(spec->mounts.end(), o.mounts.begin(), o.mounts.end());
  if (o.network) spec->network = *o.network;
  if (o.uid) spec->uid = *o.uid;
  if (o.gid) spec->gid = *o.gid;
  if (o.hostname) spec->hostname = *o.hostname;
  // A later limit replaces the profile's (or an earlier one) for its resource: applied in
  // turn, a raised hard limit would need CAP_SYS_RESOURCE.
  for (const RlimitSpec& r : o.rlimits) {
    std::erase_if(spec->rlimits, [&](const RlimitSpec& s) { return s.resource == r.resource; });
    spec->rlimits.push_back(r);
  }
  if (o.time_limit_s) spec->time_limit_s = *o.time_limit_s;
  if (o.tmpfs_size) spec->tmpfs_size = *o.tmpfs_size;
  if (o.memory) spec->memory_limit = *o.memory;
  if (o.pids) spec->pids_limit = *o.pids;
  spec->memory_asked = o.memory.has_value();
  spec->pids_asked = o.pids.has_value();
  spec->keep_fds = o.keep_fds;
  return spec;
}

std::expected<std::string, std::string> ParseMountSource(std::string_view source,
                                                         const std::string& base_dir) {
  if (source.empty()) return std::unexpected(std::string("the source path is empty"));
  std::string path(source);
  if (path[0] != '/') path = base_dir + "/" + path;
  // Made absolute by its words alone: with no link allowed in it (below), ".." means what it
  // says.
  std::vector<std::string> parts;
  for (size_t start = 0; start < path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string normal;
  for (const std::string& part : parts) normal += "/" + part;
  if (normal.empty()) normal = "/";
  // A link in it may be the guest's own, planted in an earlier run: never followed.
  auto fd = util::OpenWithoutSymlinks(AT_FDCWD, normal, O_PATH);
  if (!fd) {
    return std::unexpected("the source " + Quoted(source) + " cannot be used: " + fd.error() +
                           (errno == ENOENT ? " (give an existing host path)" : ""));
  }
  close(*fd);
  return normal;
}

std::expected<std::string, std::string> ParseMountTarget(std::string_view target) {
  if (target.empty() || target[0] != '/') {
    return std::unexpected("the destination " + Quoted(target) +
                           " is not an absolute path (write the path inside the sandbox, "
                           "e.g. /data)");
  }
  std::string out;
  size_t start = 0;
  while (start < target.size()) {
    size_t slash = target.find('/', start);
    if (slash == std::string_view::npos) slash = target.size();
    std::string_view part = target.substr(start, slash - start);
    start = slash + 1;
    if (part.empty()) continue;
    if (part == "." || part == "..") {
      return std::unexpected("the destination " + Quoted(target) +
                             " has a '.' or '..' component (write it without them)");
    }
    out += "/" + std::string(part);
  }
  if (out.empty()) {
    return std::unexpected(
        std::string("the destination '/' would replace the root "
                    "(use --root DIR for that)"));
  }
  return out;
}

std::expected<std::string, std::string> ParseRoot(std::string_view dir,
                                                  const std::string& base_dir) {
  auto path = ParseMountSource(dir, base_dir);
  if (!path) return path;
  if (!IsDirectory(*path)) {
    return std::unexpected("the root " + Quoted(dir) + " is not a directory");
  }
  if (*path == "/") return path;
  for (const char* needed : {"/dev", "/proc", "/tmp"}) {
    if (!IsDirectory(*path + needed)) {
      return std::unexpected("the root " + Quoted(dir) + " has no " + needed +
                             " directory (the guest's /dev, /proc and /tmp are mounted there: "
                             "create them with `mkdir " +
                             *path + needed + "`)");
    }
  }
  return path;
}

std::expected<SandboxSpec::Network, std::string> ParseNetwork(std::string_view value) {
  if (value == "none") return SandboxSpec::Network::kNone;
  if (value == "host") return SandboxSpec::Network::kHost;
  return std::unexpected("unknown network " + Quoted(value) +
                         " (none: only the sandbox's own loopback; host: the host's network)");
}

std::expected<uint32_t, std::string> ParseId(std::string_view value) {
  bool digits = !value.empty() && value.size() <= 10;
  for (char c : value) digits = digits && isdigit(static_cast<unsigned char>(c));
  const unsigned long long n = digits ? strtoull(std::string(value).c_str(), nullptr, 10) : 0;
  if (!digits || n > 4294967294ULL) {
    return std::unexpected("bad id " + Quoted(value) + " (a number from 0 to 4294967294)");
  }
  return static_cast<uint32_t>(n);
}

std::expected<std::string, std::string> ParseHostname(std::string_view value) {
  bool ok = !value.empty() && value.size() <= 64;
  for (char c : value) {
    ok = ok && (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.');
  }
  if (!ok) {
    return std::unexpected("bad hostname " + Quoted(value) +
                           " (1 to 64 letters, digits, '-', '_' or '.')");
  }
  return std::string(value);
}

std::expected<RlimitSpec, std::string> MakeRlimit(std::string_view name, std::string_view soft,
                                                  std::string_view hard) {
  const RlimitName* known = nullptr;
  for (const RlimitName& r : kRlimits) {
    if (name == r.name) known = &r;
  }
  if (!known) {
    return std::unexpected("unknown resource " + Quoted(name) + " (one of: " + RlimitNames() + ")");
  }
  auto s = ParseRlimitValue(soft);
  if (!s) return std::unexpected(s.error());
  auto h = hard.empty() ? s : ParseRlimitValue(hard);
  if (!h) return std::unexpected(h.error());
  // RLIM_INFINITY is the largest value, so plain comparisons order limits.
  if (*s > *h) {
    return std::unexpected("the soft limit of " + std::string(name) + " (" + RlimitText(*s) +
                           ") is above its hard limit (" + RlimitText(*h) + ")");
  }
  rlimit own;
  if (getrlimit(known->resource, &own) == 0 && *h > own.rlim_max) {
    return std::unexpected("the hard limit of " + std::string(name) + " (" + RlimitText(*h) +
                           ") is above the one snare runs under (" + RlimitText(own.rlim_max) +
                           "), which a guest cannot raise (ask for at most that)");
  }
  return RlimitSpec{known->resource, *s, *h};
}

std::expected<RlimitSpec, std::string> ParseRlimit(std::string_view spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string_view::npos) {
    return std::unexpected("bad limit " + Quoted(spec) +
                           " (write NAME=SOFT[:HARD], e.g. nofile=256 or as=1G:2G)");
  }
  std::string_view values = spec.substr(eq + 1);
  const size_t colon = values.find(':');
  std::string_view soft = values.substr(0, colon);
  std::string_view hard = colon == std::string_view::npos ? "" : values.substr(colon + 1);
  if (colon != std::string_view::npos && hard.empty()) {
    return std::unexpected("missing hard limit after ':' in " + Quoted(spec));
  }
  return MakeRlimit(spec.substr(0, eq), soft, hard);
}

std::expected<double, std::string> CheckTimeLimit(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxTimeLimitS) {
    char text[64];
    snprintf(text, sizeof(text), "%g", seconds);
    return std::unexpected(std::string("bad time limit ") + text + " (" + kTimeLimitHint + ")");
  }
  return seconds;
}

std::expected<double, std::string> ParseTimeLimit(std::string_view value) {
  const std::string text(value);
  char* end = nullptr;
  errno = 0;
  const double seconds = text.empty() ? 0 : strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !isdigit(static_cast<unsigned char>(text[0])) ||
      !CheckTimeLimit(seconds)) {
    return std::unexpected("bad time limit " + Quoted(value) + " (" + kTimeLimitHint + ")");
  }
  return seconds;
}

std::string RlimitNames() {
  std::string names;
  for (const RlimitName& r : kRlimits) names += (names.empty() ? "" : ", ") + std::string(r.name);
  return names;
}

std::expected<uint64_t, std::string> ParseTmpfsSize(std::string_view value) {
  auto bytes = ParseRlimitValue(value);
  if (!bytes || *bytes == RLIM_INFINITY || *bytes < (uint64_t{1} << 20)) {
    return std::unexpected("bad size " + Quoted(value) +
                           " (bytes for all the sandbox's tmpfs together, at least 1M, "
                           "optionally with K, M, G or T, e.g. 512M)");
  }
  return static_cast<uint64_t>(*bytes);
}

std::expected<uint64_t, std::string> ParseMemoryLimit(std::string_view value) {
  auto bytes = ParseRlimitValue(value);
  if (bytes && *bytes == RLIM_INFINITY) return 0;
  if (!bytes || *bytes < (uint64_t{16} << 20)) {
    return std::unexpected("bad size " + Quoted(value) +
                           " (bytes of memory for all the guest's processes together, at least "
                           "16M, optionally with K, M, G or T, e.g. 2G; or unlimited)");
  }
  return static_cast<uint64_t>(*bytes);
}

std::expected<uint64_t, std::string> ParsePidsLimit(std::string_view value) {
  auto n = ParseRlimitValue(value);
  if (n && *n == RLIM_INFINITY) return 0;
  if (!n || *n < 2 || *n > 4194304) {
    return std::unexpected("bad count " + Quoted(value) +
                           " (how many processes and threads the guest may have at once, from 2 "
                           "to 4194304, e.g. 500; or unlimited)");
  }
  return static_cast<uint64_t>(*n);
}

std::expected<int, std::string> ParseKeepFd(std::string_view value) {
  const std::string text(value);
  char* end;
  errno = 0;
  const long fd = strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || fd < 3 || fd > 1019) {
    return std::unexpected("bad fd " + Quoted(value) +
                           " (an open fd from 3 to 1019: 0-2 are always passed, 1020 and up are "
                           "snare's own)");
  }
  return static_cast<int>(fd);
}

}  // namespace snare::sandbox
