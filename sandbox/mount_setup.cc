#include "sandbox/mount_setup.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/host_path.h"

namespace snare::sandbox {
namespace {

// Where the host's tree is reachable while the new root is built, and the new root.
constexpr char kBase[] = "/tmp";
constexpr char kOldRoot[] = "/oldroot";
constexpr char kNewRoot[] = "/newroot";

std::unexpected<std::string> Failed(const std::string& what) {
  return std::unexpected(what + ": " + strerror(errno));
}

// Attaches a detached tree (open_tree's) at target.
std::expected<void, std::string> Attach(int tree, const std::string& target) {
  if (syscall(SYS_move_mount, tree, "", AT_FDCWD, target.c_str(), MOVE_MOUNT_F_EMPTY_PATH) != 0) {
    return Failed("attaching the mount at " + target);
  }
  return {};
}

// Binds what `source` (an fd) holds at target: the very directory or file the fd was opened
// on, so nothing renamed or linked since can redirect the bind.
std::expected<void, std::string> Bind(int source, const std::string& what,
                                      const std::string& target, bool read_only) {
  const int tree =
      static_cast<int>(syscall(SYS_open_tree, source, "",
                               OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH));
  if (tree < 0) return Failed("binding " + what + " at " + target);
  mount_attr attr = {};
  attr.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (read_only ? MOUNT_ATTR_RDONLY : 0);
  if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) !=
      0) {
    const int err = errno;
    close(tree);
    errno = err;
    return Failed("making " + target + (read_only ? " read-only" : " nosuid"));
  }
  auto attached = Attach(tree, target);
  close(tree);
  return attached;
}

// A host path under /oldroot, opened without following any link (util/host_path.h).
std::expected<int, std::string> OpenHostPath(const std::string& path) {
  const int old_root = open(kOldRoot, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (old_root < 0) return Failed(std::string("opening ") + kOldRoot);
  auto fd = util::OpenWithoutSymlinks(old_root, path, O_PATH, 0, /*in_root=*/true);
  close(old_root);
  if (!fd) return std::unexpected("the bind source " + fd.error());
  return fd;
}

std::expected<void, std::string> Tmpfs(const std::string& target, const char* mode,
                                       const std::string& extra = "") {
  std::string options = std::string("mode=") + mode + extra;
  if (mount("tmpfs", target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
    return Failed("mounting a tmpfs at " + target);
  }
  return {};
}

// Every writable tmpfs of the guest's (/tmp, /run, /dev/shm, --tmpfs) is a directory of this
// one, so that one size bounds them together. Lives in the scratch root, which is detached
// once the new root is entered: only the binds of its directories stay reachable.
constexpr char kStore[] = "/store";

// A fresh directory of the store at target.
std::expected<void, std::string> StoreDirectory(const std::string& target, mode_t mode) {
  std::string dir = std::string(kStore) + "/XXXXXX";
  if (!mkdtemp(dir.data()) || chmod(dir.c_str(), mode) != 0) return Failed("mkdir " + dir);
  if (mount(dir.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
      mount(nullptr, target.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV,
            nullptr) != 0) {
    return Failed("mounting a tmpfs at " + target);
  }
  return {};
}

std::expected<void, std::string> MakeFile(const std::string& path) {
  int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return Failed("creating " + path);
  close(fd);
  return {};
}

// A tmpfs holding the host's harmless character devices (bound: mknod needs host root),
// a devpts instance of its own, a shm tmpfs and the usual symlinks.
std::expected<void, std::string> Dev(const std::string& target) {
  // Nodes, links and mount points only: a few KiB however the guest is mapped.
  if (auto r = Tmpfs(target, "0755", ",size=256k,nr_inodes=256"); !r) return r;
  for (const char* node : {"null", "zero", "full", "random", "urandom", "tty"}) {
    const std::string path = target + "/" + node;
    if (auto r = MakeFile(path); !r) return r;
    const std::string host = std::string(kOldRoot) + "/dev/" + node;
    if (mount(host.c_str(), path.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      return Failed("binding " + host);
    }
  }
  if (mkdir((target + "/shm").c_str(), 0755) != 0) return Failed("mkdir " + target + "/shm");
  if (auto r = StoreDirectory(target + "/shm", 01777); !r) return r;
  if (mkdir((target + "/pts").c_str(), 0755) != 0) return Failed("mkdir " + target + "/pts");
  if (mount("devpts", (target + "/pts").c_str(), "devpts", MS_NOSUID | MS_NOEXEC,
            "newinstance,ptmxmode=0666,mode=0620") != 0) {
    return Failed("mounting devpts at " + target + "/pts");
  }
  const struct {
    const char* name;
    const char* to;
  } links[] = {{"ptmx", "pts/ptmx"},
               {"fd", "/proc/self/fd"},
               {"stdin", "/proc/self/fd/0"},
               {"stdout", "/proc/self/fd/1"},
               {"stderr", "/proc/self/fd/2"}};
  for (const auto& l : links) {
    if (symlink(l.to, (target + "/" + l.name).c_str()) != 0) {
      return Failed("symlink " + target + "/" + l.name);
    }
  }
  return {};
}

// A missing mount point is created where it harms nothing: in a tmpfs of the sandbox's own
// (a read-only bind refuses it; a writable bind of a host directory is not touched).
std::expected<void, std::string> EnsureMountPoint(const std::string& target, bool directory) {
  struct stat st;
  if (stat(target.c_str(), &st) == 0) return {};
  const size_t slash = target.rfind('/');
  const std::string parent = slash == 0 ? "/" : target.substr(0, slash);
  if (auto r = EnsureMountPoint(parent, true); !r) return r;
  struct statfs fs;
  if (statfs(parent.c_str(), &fs) != 0 || fs.f_type != TMPFS_MAGIC) {
    return std::unexpected("mount target " + target.substr(sizeof(kNewRoot) - 1) +
                           " does not exist in the sandbox's root (create it, or mount a --tmpfs "
                           "above it)");
  }
  if (directory ? mkdir(target.c_str(), 0755) != 0 : !MakeFile(target).has_value()) {
    return Failed("creating the mount point " + target);
  }
  return {};
}

std::expected<void, std::string> Apply(const MountSpec& m,
                                       const std::map<std::string, int>& prepared) {
  const std::string target = kNewRoot + m.target;
  const bool binds = m.kind == MountSpec::Kind::kBind || m.kind == MountSpec::Kind::kRoBind;
  if (m.kind == MountSpec::Kind::kSymlink) {
    const std::string parent = target.substr(0, target.rfind('/'));
    if (auto r = EnsureMountPoint(parent, true); !r) return r;
  } else if (!binds) {
    if (auto r = EnsureMountPoint(target, true); !r) return r;
  }
  switch (m.kind) {
    case MountSpec::Kind::kRoBind:
    case MountSpec::Kind::kBind: {
      auto source = OpenHostPath(m.source);
      if (!source) return std::unexpected(source.error());
      struct stat st;
      auto bound = fstat(*source, &st) != 0 ? Failed("the bind source " + m.source)
                                            : EnsureMountPoint(target, S_ISDIR(st.st_mode));
      if (bound) {
        if (auto it = prepared.find(m.target); it != prepared.end()) {
          bound = Attach(it->second, target);
        } else {
          bound = Bind(*source, m.source, target, m.kind == MountSpec::Kind::kRoBind);
        }
      }
      close(*source);
      return bound;
    }
    case MountSpec::Kind::kTmpfs:
      return StoreDirectory(target, 01777);
    case MountSpec::Kind::kEmptyDir:
      return StoreDirectory(target, 0755);
    case MountSpec::Kind::kSymlink:
      if (symlink(m.source.c_str(), target.c_str()) != 0) return Failed("symlink " + m.target);
      return {};
    case MountSpec::Kind::kDev:
      return Dev(target);
    case MountSpec::Kind::kProc:
      if (mount("proc", target.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
        return Failed("mounting /proc at " + m.target);
      }
      return {};
  }
  return {};
}

}  // namespace

std::expected<void, std::string> SetUpMounts(const SandboxSpec& spec,
                                             const std::map<std::string, int>& prepared,
                                             const std::string& cwd) {
  // Nothing done here may propagate back to the host's mounts.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    return Failed("making the mount namespace private");
  }
  // Build in a scratch tmpfs that becomes the root for a moment, with the host's tree below
  // it at /oldroot and the guest's at /newroot.
  if (auto r = Tmpfs(kBase, "0755"); !r) return r;
  for (const char* dir : {"/tmp/oldroot", "/tmp/newroot"}) {
    if (mkdir(dir, 0755) != 0) return Failed(std::string("mkdir ") + dir);
  }
  if (syscall(SYS_pivot_root, kBase, "/tmp/oldroot") != 0) return Failed("pivot_root");
  if (chdir("/") != 0) return Failed("chdir /");
  if (mkdir(kStore, 0755) != 0) return Failed(std::string("mkdir ") + kStore);
  const std::string size = spec.tmpfs_size ? ",size=" + std::to_string(spec.tmpfs_size) : "";
  if (auto r = Tmpfs(kStore, "0755", size); !r) return r;
  auto root = OpenHostPath(spec.root);
  if (!root) return std::unexpected(root.error());
  auto bound = Bind(*root, spec.root, kNewRoot, /*read_only=*/true);
  close(*root);
  if (!bound) return bound;
  for (const MountSpec& m : spec.mounts) {
    if (auto r = Apply(m, prepared); !r) return r;
  }
  // Enter the new root; the scratch root stacked on it goes with its view of the host.
  if (chdir(kNewRoot) != 0) return Failed("chdir /newroot");
  if (syscall(SYS_pivot_root, ".", ".") != 0) return Failed("pivot_root into the new root");
  if (umount2(".", MNT_DETACH) != 0) return Failed("detaching the host's tree");
  if (chdir("/") != 0) return Failed("chdir /");
  // Under another root the host's working directory may not exist: the guest starts at /.
  if (chdir(cwd.c_str()) != 0 && (spec.root == "/" || chdir("/") != 0)) {
    return Failed("the working directory " + cwd + " is not in the sandbox");
  }
  return {};
}

std::expected<void, std::string> EnterGuestTree(const SandboxSpec& spec, const std::string& cwd) {
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  if (unshare(uid == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS) != 0) {
    return Failed("unshare");
  }
  if (uid != 0) {
    // The caller's own ids only, what an unprivileged process may map.
    const struct {
      const char* file;
      std::string text;
    } maps[] = {{"/proc/self/setgroups", "deny"},
                {"/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1"},
                {"/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1"}};
    for (const auto& m : maps) {
      int fd = open(m.file, O_WRONLY | O_CLOEXEC);
      if (fd < 0 ||
          write(fd, m.text.data(), m.text.size()) != static_cast<ssize_t>(m.text.size())) {
        if (fd >= 0) close(fd);
        return Failed(std::string("writing ") + m.file);
      }
      close(fd);
    }
  }
  SandboxSpec files = spec;
  files.mounts.clear();
  for (const MountSpec& m : spec.mounts) {
    if (m.kind != MountSpec::Kind::kDev && m.kind != MountSpec::Kind::kProc) {
      files.mounts.push_back(m);
    }
  }
  return SetUpMounts(files, {}, cwd);
}

}  // namespace snare::sandbox
