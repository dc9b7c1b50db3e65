// The cgroup a sandbox's processes run in, for its memory and task bounds (--memory,
// --pids). An rlimit bounds one process (RLIMIT_AS) or one user's tasks (RLIMIT_NPROC); only
// a cgroup bounds what all of the guest's processes hold together, tmpfs pages included.
// snare makes one where the kernel lets it: cgroup v2 below its own cgroup (or beside it,
// when its own holds processes and so may not hand controllers down), which needs root or a
// delegated subtree (a systemd user scope); or cgroup v1, one directory per controller, as
// root. Where it cannot, the caller falls back to rlimits and says so.
#ifndef SNARE_SANDBOX_GUEST_CGROUP_H_
#define SNARE_SANDBOX_GUEST_CGROUP_H_

#include <sys/types.h>

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

// A line of /proc/self/cgroup: "ID:CONTROLLERS:PATH" (v2: "0::PATH").
struct ProcCgroupLine {
  int hierarchy = 0;
  std::vector<std::string> controllers;  // v1: "memory", "pids", "name=systemd"...; v2: none
  std::string path;                      // relative to the hierarchy's (namespace's) root
};
std::vector<ProcCgroupLine> ParseProcCgroup(std::string_view text);

// A cgroup file system from /proc/self/mountinfo.
struct CgroupMount {
  int version = 0;                       // 1 or 2
  std::string root;                      // the cgroup this mount shows at its mount point
  std::string mount_point;               // unescaped
  std::vector<std::string> controllers;  // v1: from the super options; v2: none
};
std::vector<CgroupMount> ParseCgroupMounts(std::string_view mountinfo);

// The directory of the cgroup `path` under `mount`, or "" when the mount does not show it.
std::string CgroupDirectory(const CgroupMount& mount, const std::string& path);

struct CgroupLimits {
  uint64_t memory_bytes = 0;  // 0: no memory bound asked
  uint64_t pids = 0;          // 0: no task bound asked
  // cgroup v1 too. Under v1 a process joins by a write to cgroup.procs, which waits out an
  // RCU grace period (9 ms on a 2-vCPU VM, Linux 6.18): worth it when the user asked for a
  // bound, not for every launch. Under v2 init is cloned straight into the cgroup
  // (CLONE_INTO_CGROUP), which costs no such wait.
  bool v1 = true;
};

// What the guest's cgroup saw happen: OOM kills, forks refused at the task bound.
struct CgroupEvents {
  uint64_t oom_kills = 0;
  uint64_t pids_refused = 0;
};

class GuestCgroup {
 public:
  // A cgroup for this run with the limits it could place; one it could not is left out of
  // bounds_memory()/bounds_pids() with the reason in why_no_memory()/why_no_pids(). `proc_cgroup`
  // and `mountinfo`: the texts of /proc/self/cgroup and /proc/self/mountinfo (read here when
  // empty).
  static GuestCgroup Create(const CgroupLimits& limits, std::string proc_cgroup = "",
                            std::string mountinfo = "");

  GuestCgroup() = default;
  GuestCgroup(GuestCgroup&& other) noexcept;
  GuestCgroup& operator=(GuestCgroup&& other) noexcept;
  GuestCgroup(const GuestCgroup&) = delete;
  GuestCgroup& operator=(const GuestCgroup&) = delete;
  ~GuestCgroup() { Remove(); }

  bool bounds_memory() const { return !memory_dir_.empty(); }
  bool bounds_pids() const { return !pids_dir_.empty(); }
  // "cgroup v2 /sys/fs/cgroup/…/snare-123" (v1: each directory); "" with none.
  std::string Describe() const;
  // Why a bound asked for has no cgroup ("" when it has one or was not asked for).
  const std::string& why_no_memory() const { return why_no_memory_; }
  const std::string& why_no_pids() const { return why_no_pids_; }

  // A cgroup v2 directory's fd for clone3's CLONE_INTO_CGROUP (-1 under v1 or with none).
  int clone_fd() const { return clone_fd_; }
  // Moves `pid` (before it forks anything) into every directory.
  std::expected<void, std::string> Join(pid_t pid) const;
  CgroupEvents Events() const;
  // Removes its directories: call it once the guest's processes are gone (the pid
  // namespace's init reaped). A directory left behind (snare killed) goes in a later run.
  void Remove();

 private:
  // Sets version_ and the reasons from `why` (controller -> the last reason met).
  void Finish(const CgroupLimits& limits, std::map<std::string, std::string>& why);

  int version_ = 0;
  int clone_fd_ = -1;
  std::string memory_dir_, pids_dir_;  // the same directory under v2
  std::string why_no_memory_, why_no_pids_;
};

// The rlimits that stand in for the bounds the user asked for and `cgroup` could not place:
// RLIMIT_AS (per process) for memory, RLIMIT_NPROC (the guest user's tasks) for pids, each
// lowered to the bound, never raised. Returns snare's note on it for stderr ("" when nothing
// asked for fell back).
std::string FallBackToRlimits(const GuestCgroup& cgroup, SandboxSpec* spec);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_GUEST_CGROUP_H_
