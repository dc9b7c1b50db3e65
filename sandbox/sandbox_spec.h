// What confines a guest, as data: the filesystem it sees (a new root, bind mounts, tmpfs,
// /dev, /proc), its network, its identity, its limits. The launcher turns it into
// namespaces, mounts, Landlock rules and rlimits (sandbox_setup.h); profiles (profiles.h),
// command-line options and policy files fill it.
#ifndef SNARE_SANDBOX_SANDBOX_SPEC_H_
#define SNARE_SANDBOX_SANDBOX_SPEC_H_

#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace snare::sandbox {

struct MountSpec {
  enum class Kind {
    kRoBind,  // source (host path) at target, read-only
    kBind,    // source at target, writable
    kTmpfs,   // an empty private tmpfs at target
    kDev,     // a minimal /dev at target: null, zero, full, random, urandom, tty, shm, pts
    kProc,    // a procfs of the guest's pid namespace at target
    // An empty directory of the sandbox's own at target, writable by init only: covers a
    // host directory the guest must not see (host_view.h).
    kEmptyDir,
    kSymlink,  // a symbolic link at target (in a directory of the sandbox's own) to source
  };
  Kind kind;
  std::string source;  // binds: a host path; kSymlink: the link's text
  std::string target;  // a path inside the sandbox
};

struct RlimitSpec {
  int resource;  // RLIMIT_*
  rlim_t soft;
  rlim_t hard;
};

struct SandboxSpec {
  // False: no confinement at all (the trace profile): the guest shares the host's
  // namespaces, files, network and terminal, as a plain interposer.
  bool confine = true;
  // With confine false, the container profile: a container engine confines the guest (its
  // namespaces, mounts, cgroups); snare adds none but hardens itself as in a sandbox (not
  // dumpable, the confinement rules of the policy).
  bool engine_confined = false;
  // The new root's source: a host directory bind-mounted read-only at "/".
  std::string root = "/";
  std::vector<MountSpec> mounts;  // in order, after the root
  enum class Network { kNone, kHost } network = Network::kNone;
  // Inside the sandbox; default: the invoking user's ids (65534 when invoked as root).
  std::optional<uid_t> uid;
  std::optional<gid_t> gid;
  std::string hostname = "snare";
  std::vector<RlimitSpec> rlimits;
  double time_limit_s = 0;  // 0: none
  // Bytes that every tmpfs of the sandbox holds together (/tmp, /run, /dev/shm, --tmpfs):
  // they are directories of one tmpfs of this size. Also the guest IPC namespace's SysV
  // shared memory bound (shmmax, shmall).
  uint64_t tmpfs_size = 0;
  // What the guest's processes hold together: bytes of memory (tmpfs pages and swap
  // included) and tasks, bounded by a cgroup where snare can make one (guest_cgroup.h), else
  // by RLIMIT_AS per process and RLIMIT_NPROC. 0: no bound.
  uint64_t memory_limit = 0;
  uint64_t pids_limit = 0;
  // The user asked for them (--memory, --pids, or the policy file): only these fall back to
  // rlimits, and snare says so.
  bool memory_asked = false;
  bool pids_asked = false;
  // Inherited fds the guest keeps besides 0-2 (--keep-fd); every other is closed.
  std::vector<int> keep_fds;
  // TCP ports the guest may connect to / bind (Landlock); empty: no TCP restriction beyond
  // the network namespace.
  std::vector<uint16_t> tcp_connect;
  std::vector<uint16_t> tcp_bind;
};

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_SANDBOX_SPEC_H_
