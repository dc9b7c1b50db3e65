#include "sandbox/guest_cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <sstream>
#include <thread>

#include "util/small_file.h"

namespace snare::sandbox {
namespace {

constexpr char kPrefix[] = "snare-";

std::vector<std::string> Split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t at = text.find(sep, start);
    out.emplace_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The words of a space-separated list (cgroup.controllers).
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool Has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() &&
        std::isdigit(static_cast<unsigned char>(field[i + 1]))) {
      out += static_cast<char>(std::stoi(std::string(field.substr(i + 1, 3)), nullptr, 8));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

std::string Read(const std::string& path) {
  auto text = util::ReadSmallFile(path, 1 << 20);
  return text ? *text : std::string();
}

std::expected<void, std::string> Write(const std::string& path, const std::string& value) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected("open " + path + ": " + strerror(errno));
  const ssize_t n = write(fd, value.data(), value.size());
  const int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(value.size())) {
    return std::unexpected("writing \"" + value + "\" to " + path + ": " +
                           (n < 0 ? strerror(err) : "short write"));
  }
  return {};
}

// A line "KEY N" of a flat-keyed cgroup file (memory.events, pids.events, memory.oom_control).
uint64_t Counter(const std::string& file, std::string_view key) {
  std::istringstream in(Read(file));
  std::string k;
  uint64_t v;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

// Directories of earlier runs whose snare was killed before it could remove them (an rmdir
// of a cgroup that still holds processes fails, so a live run's is safe; the age spares one
// whose snare has made it but not yet joined it from another pid namespace).
void RemoveStale(const std::string& parent) {
  DIR* dir = opendir(parent.c_str());
  if (!dir) return;
  const time_t now = time(nullptr);
  while (dirent* e = readdir(dir)) {
    if (strncmp(e->d_name, kPrefix, sizeof(kPrefix) - 1) != 0) continue;
    const std::string path = parent + "/" + e->d_name;
    const long pid = strtol(e->d_name + sizeof(kPrefix) - 1, nullptr, 10);
    struct stat st;
    if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) ||
        stat(path.c_str(), &st) != 0 || now - st.st_mtime < 60) {
      continue;
    }
    rmdir(path.c_str());
  }
  closedir(dir);
}

std::string MakeChild(const std::string& parent) {
  RemoveStale(parent);
  const std::string dir = parent + "/" + kPrefix + std::to_string(getpid());
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return "";
  return dir;
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

}  // namespace

std::vector<ProcCgroupLine> ParseProcCgroup(std::string_view text) {
  std::vector<ProcCgroupLine> out;
  for (const std::string& line : Split(text, '\n')) {
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    ProcCgroupLine l;
    l.hierarchy = atoi(line.substr(0, a).c_str());
    if (b > a + 1) l.controllers = Split(std::string_view(line).substr(a + 1, b - a - 1), ',');
    l.path = line.substr(b + 1);
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<CgroupMount> ParseCgroupMounts(std::string_view mountinfo) {
  std::vector<CgroupMount> out;
  for (const std::string& line : Split(mountinfo, '\n')) {
    // ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS
    const std::vector<std::string> f = Split(line, ' ');
    const auto dash = std::find(f.begin(), f.end(), "-");
    if (f.size() < 5 || dash == f.end() || f.end() - dash < 4) continue;
    const std::string& type = dash[1];
    if (type != "cgroup" && type != "cgroup2") continue;
    CgroupMount m;
    m.version = type == "cgroup2" ? 2 : 1;
    m.root = Unescape(f[3]);
    m.mount_point = Unescape(f[4]);
    if (m.version == 1) m.controllers = Split(dash[3], ',');
    out.push_back(std::move(m));
  }
  return out;
}

std::string CgroupDirectory(const CgroupMount& mount, const std::string& path) {
  if (mount.root == "/") return path == "/" ? mount.mount_point : mount.mount_point + path;
  if (path == mount.root) return mount.mount_point;
  if (path.rfind(mount.root + "/", 0) == 0)
    return mount.mount_point + path.substr(mount.root.size());
  return "";
}

GuestCgroup GuestCgroup::Create(const CgroupLimits& limits, std::string proc_cgroup,
                                std::string mountinfo) {
  GuestCgroup cg;
  if (!limits.memory_bytes && !limits.pids) return cg;
  if (proc_cgroup.empty()) proc_cgroup = Read("/proc/self/cgroup");
  if (mountinfo.empty()) mountinfo = Read("/proc/self/mountinfo");
  const std::vector<ProcCgroupLine> own = ParseProcCgroup(proc_cgroup);
  const std::vector<CgroupMount> mounts = ParseCgroupMounts(mountinfo);
  std::vector<std::string> needed;
  if (limits.memory_bytes) needed.push_back("memory");
  if (limits.pids) needed.push_back("pids");
  // Why each controller has no cgroup: the last reason met.
  std::map<std::string, std::string> why;
  auto because = [&](const std::string& reason) {
    for (const std::string& c : needed) why[c] = reason;
  };

  auto place = [&](const std::string& dir, const std::string& controller) {
    if (controller == "memory") {
      if (auto r = Write(dir + (cg.version_ == 2 ? "/memory.max" : "/memory.limit_in_bytes"),
                         std::to_string(limits.memory_bytes));
          !r) {
        why[controller] = r.error();
        return false;
      }
      // Swap counts too where the kernel accounts it: the bound is on what the guest holds.
      if (cg.version_ == 2) {
        (void)Write(dir + "/memory.swap.max", "0");
      } else {
        (void)Write(dir + "/memory.memsw.limit_in_bytes", std::to_string(limits.memory_bytes));
      }
      cg.memory_dir_ = dir;
    } else {
      if (auto r = Write(dir + "/pids.max", std::to_string(limits.pids)); !r) {
        why[controller] = r.error();
        return false;
      }
      cg.pids_dir_ = dir;
    }
    return true;
  };

  // cgroup v2: every controller asked for must be there, in one directory.
  const auto v2 = std::find_if(mounts.begin(), mounts.end(),
                               [](const CgroupMount& m) { return m.version == 2; });
  const auto own_v2 = std::find_if(own.begin(), own.end(), [](const ProcCgroupLine& l) {
    return l.hierarchy == 0 && l.controllers.empty();
  });
  if (v2 != mounts.end() && own_v2 != own.end()) {
    // Below snare's own cgroup; when that holds processes it may not enable controllers for
    // children (the "no internal processes" rule), so beside it, in a parent that has.
    std::vector<std::string> parents = {own_v2->path};
    if (own_v2->path != "/") parents.push_back(Parent(own_v2->path));
    for (size_t i = 0; i < parents.size() && !cg.bounds_memory() && !cg.bounds_pids(); ++i) {
      const std::string base = CgroupDirectory(*v2, parents[i]);
      if (base.empty()) continue;
      const std::vector<std::string> available = Words(Read(base + "/cgroup.controllers"));
      const std::vector<std::string> enabled = Words(Read(base + "/cgroup.subtree_control"));
      bool ok = true;
      for (const std::string& c : needed) {
        if (!Has(available, c)) {
          because("cgroup v2 at " + base + " offers no " + c + " controller");
        } else if (Has(enabled, c)) {
          continue;
        } else if (i > 0) {
          because("cgroup v2 at " + base + " does not pass the " + c + " controller down");
        } else if (auto r = Write(base + "/cgroup.subtree_control", "+" + c); r) {
          continue;
        } else {
          because(r.error());
        }
        ok = false;
        break;
      }
      if (!ok) continue;
      const std::string dir = MakeChild(base);
      if (dir.empty()) {
        because("cannot make a cgroup in " + base + ": " + strerror(errno));
        continue;
      }
      cg.version_ = 2;
      bool placed = true;
      for (const std::string& c : needed) placed = placed && place(dir, c);
      if (!placed) {
        cg.Remove();
        cg.version_ = 0;
      }
    }
    if (cg.version_ == 2) {
      cg.clone_fd_ = open(cg.memory_dir_.empty() ? cg.pids_dir_.c_str() : cg.memory_dir_.c_str(),
                          O_PATH | O_DIRECTORY | O_CLOEXEC);
      return cg;
    }
  }
  if (!limits.v1) {
    because("cgroup v1 only, which snare uses when a bound is asked for (--memory, --pids)");
    cg.Finish(limits, why);
    return cg;
  }

  // cgroup v1: a directory per controller, each in snare's own cgroup of that hierarchy.
  cg.version_ = 1;
  for (const std::string& c : needed) {
    const auto mount = std::find_if(mounts.begin(), mounts.end(), [&](const CgroupMount& m) {
      return m.version == 1 && Has(m.controllers, c);
    });
    const auto line = std::find_if(own.begin(), own.end(),
                                   [&](const ProcCgroupLine& l) { return Has(l.controllers, c); });
    if (mount == mounts.end() || line == own.end()) {
      if (why[c].empty()) why[c] = "no cgroup hierarchy has the " + c + " controller";
      continue;
    }
    const std::string base = CgroupDirectory(*mount, line->path);
    const std::string dir = base.empty() ? "" : MakeChild(base);
    if (dir.empty()) {
      why[c] = "cannot make a cgroup in " + (base.empty() ? mount->mount_point : base) + ": " +
               strerror(errno);
      continue;
    }
    if (!place(dir, c)) rmdir(dir.c_str());
  }
  cg.Finish(limits, why);
  return cg;
}

void GuestCgroup::Finish(const CgroupLimits& limits, std::map<std::string, std::string>& why) {
  if (!bounds_memory() && !bounds_pids()) version_ = 0;
  auto reason = [&](const std::string& c) {
    return why[c].empty() ? std::string("no cgroup file system is mounted") : why[c];
  };
  if (limits.memory_bytes && !bounds_memory()) why_no_memory_ = reason("memory");
  if (limits.pids && !bounds_pids()) why_no_pids_ = reason("pids");
}

GuestCgroup::GuestCgroup(GuestCgroup&& other) noexcept { *this = std::move(other); }

GuestCgroup& GuestCgroup::operator=(GuestCgroup&& other) noexcept {
  if (this != &other) {
    Remove();
    version_ = other.version_;
    clone_fd_ = other.clone_fd_;
    other.clone_fd_ = -1;
    memory_dir_ = std::move(other.memory_dir_);
    pids_dir_ = std::move(other.pids_dir_);
    why_no_memory_ = std::move(other.why_no_memory_);
    why_no_pids_ = std::move(other.why_no_pids_);
    other.memory_dir_.clear();
    other.pids_dir_.clear();
    other.version_ = 0;
  }
  return *this;
}

void GuestCgroup::Remove() {
  if (clone_fd_ >= 0) close(clone_fd_);
  clone_fd_ = -1;
  for (std::string* dir : {&memory_dir_, &pids_dir_}) {
    if (dir->empty()) continue;
    // The last exits may still be under way (a v2 cgroup stays populated until they are):
    // a short wait, then the directory is left to the next run's clean-up.
    for (int i = 0; i < 100 && rmdir(dir->c_str()) != 0 && errno == EBUSY; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (memory_dir_ == pids_dir_) {
      memory_dir_.clear();
      pids_dir_.clear();
      break;
    }
    dir->clear();
  }
}

std::string GuestCgroup::Describe() const {
  if (!version_) return "";
  std::string out = "cgroup v" + std::to_string(version_) + " ";
  if (memory_dir_ == pids_dir_ || pids_dir_.empty()) return out + memory_dir_;
  if (memory_dir_.empty()) return out + pids_dir_;
  return out + memory_dir_ + " and " + pids_dir_;
}

std::expected<void, std::string> GuestCgroup::Join(pid_t pid) const {
  for (const std::string* dir : {&memory_dir_, &pids_dir_}) {
    if (dir->empty() || (dir == &pids_dir_ && *dir == memory_dir_)) continue;
    if (auto r = Write(*dir + "/cgroup.procs", std::to_string(pid)); !r) {
      return std::unexpected("joining the guest's cgroup: " + r.error());
    }
  }
  return {};
}

std::string FallBackToRlimits(const GuestCgroup& cgroup, SandboxSpec* spec) {
  auto lower = [&](int resource, uint64_t value) {
    bool found = false;
    for (RlimitSpec& r : spec->rlimits) {
      if (r.resource != resource) continue;
      found = true;
      r.soft = std::min<rlim_t>(r.soft, value);
      r.hard = std::min<rlim_t>(r.hard, value);
    }
    if (!found) spec->rlimits.push_back({resource, value, value});
  };
  std::vector<std::string> flags, reasons, instead;
  if (spec->memory_asked && spec->memory_limit && !cgroup.bounds_memory()) {
    lower(RLIMIT_AS, spec->memory_limit);
    flags.push_back("--memory=" + std::to_string(spec->memory_limit >> 20) + "M");
    reasons.push_back(cgroup.why_no_memory());
    instead.push_back(
        "RLIMIT_AS bounds each process's address space (not what they hold together)");
  }
  if (spec->pids_asked && spec->pids_limit && !cgroup.bounds_pids()) {
    lower(RLIMIT_NPROC, spec->pids_limit);
    flags.push_back("--pids=" + std::to_string(spec->pids_limit));
    if (reasons.empty() || reasons[0] != cgroup.why_no_pids()) {
      reasons.push_back(cgroup.why_no_pids());
    }
    instead.push_back("RLIMIT_NPROC the guest user's tasks");
  }
  if (flags.empty()) return "";
  auto join = [](const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
    return out;
  };
  return "snare: " + join(flags, " and ") + ": no cgroup for the guest (" + join(reasons, "; ") +
         "), so " + join(instead, ", and ") +
         " instead; a cgroup needs root, or a delegated cgroup v2 subtree (e.g. systemd-run "
         "--user --scope -p Delegate=yes snare run ...)\n";
}

CgroupEvents GuestCgroup::Events() const {
  CgroupEvents e;
  if (!memory_dir_.empty()) {
    e.oom_kills = Counter(memory_dir_ + (version_ == 2 ? "/memory.events" : "/memory.oom_control"),
                          "oom_kill");
  }
  if (!pids_dir_.empty()) e.pids_refused = Counter(pids_dir_ + "/pids.events", "max");
  return e;
}

}  // namespace snare::sandbox
