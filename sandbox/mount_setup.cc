#include "sandbox/mount_setup.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

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

// Attaches a detached tree (open_tree's, fsmount's) on the mount point `point` (an fd).
std::expected<void, std::string> Attach(int tree, int point, const std::string& target) {
  if (syscall(SYS_move_mount, tree, "", point, "",
              MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0) {
    return Failed("attaching the mount at " + target);
  }
  return {};
}

// Binds what `source` (an fd) holds at `point`: the very directory or file the fd was opened
// on, so nothing renamed or linked since can redirect the bind.
std::expected<void, std::string> Bind(int source, const std::string& what, int point,
                                      const std::string& target, bool read_only,
                                      bool devices = false) {
  const int tree =
      static_cast<int>(syscall(SYS_open_tree, source, "",
                               OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH));
  if (tree < 0) return Failed("binding " + what + " at " + target);
  mount_attr attr = {};
  // A device node's bind keeps its devices usable (and nothing there is executable).
  attr.attr_set = MOUNT_ATTR_NOSUID | (devices ? MOUNT_ATTR_NOEXEC : MOUNT_ATTR_NODEV) |
                  (read_only ? MOUNT_ATTR_RDONLY : 0);
  if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) !=
      0) {
    const int err = errno;
    close(tree);
    errno = err;
    return Failed("making " + target + (read_only ? " read-only" : " nosuid"));
  }
  auto attached = Attach(tree, point, target);
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

// A new instance of the file system `type` with string options, as a detached mount with
// `attrs` (MOUNT_ATTR_*), for Attach.
std::expected<int, std::string> NewMount(
    const char* type, const std::vector<std::pair<const char*, std::string>>& options,
    unsigned attrs) {
  const int fs = static_cast<int>(syscall(SYS_fsopen, type, FSOPEN_CLOEXEC));
  if (fs < 0) return Failed(std::string("fsopen ") + type);
  std::vector<std::pair<const char*, std::string>> all = {{"source", type}};
  all.insert(all.end(), options.begin(), options.end());
  for (const auto& [key, value] : all) {
    if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value.c_str(), 0) != 0) {
      const int err = errno;
      close(fs);
      errno = err;
      return Failed(std::string("configuring ") + type + " (" + key + "=" + value + ")");
    }
  }
  int tree = -1;
  if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) == 0) {
    tree = static_cast<int>(syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, attrs));
  }
  const int err = errno;
  close(fs);
  errno = err;
  if (tree < 0) return Failed(std::string("mounting a new ") + type);
  return tree;
}

// Every writable tmpfs of the guest's (/tmp, /run, /dev/shm, --tmpfs) is a directory of this
// one, so that one size bounds them together. Lives in the scratch root, which is detached
// once the new root is entered: only the binds of its directories stay reachable.
constexpr char kStore[] = "/store";

// A fresh directory of the store on `point`.
std::expected<void, std::string> StoreDirectory(int point, const std::string& target, mode_t mode) {
  std::string dir = std::string(kStore) + "/XXXXXX";
  if (!mkdtemp(dir.data()) || chmod(dir.c_str(), mode) != 0) return Failed("mkdir " + dir);
  const int source = open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (source < 0) return Failed("opening " + dir);
  auto bound = Bind(source, "a tmpfs", point, target, /*read_only=*/false);
  close(source);
  return bound;
}

// A tmpfs holding the host's harmless character devices (bound: mknod needs host root),
// a devpts instance of its own, a shm tmpfs and the usual symlinks.
std::expected<void, std::string> Dev(int point, const std::string& target) {
  // Nodes, links and mount points only: a few KiB however the guest is mapped.
  auto dev = NewMount("tmpfs", {{"mode", "0755"}, {"size", "262144"}, {"nr_inodes", "256"}},
                      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  if (!dev) return std::unexpected(dev.error());
  auto attached = Attach(*dev, point, target);
  // Everything below is made through the new tmpfs's own fd: no path of the host's is walked.
  auto in_dev = [&]() -> std::expected<void, std::string> {
    if (!attached) return attached;
    for (const char* node : {"null", "zero", "full", "random", "urandom", "tty"}) {
      const std::string where = target + "/" + node;
      const int file = openat(*dev, node, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
      if (file < 0) return Failed("creating " + where);
      close(file);
      auto host = OpenHostPath(std::string("/dev/") + node);
      if (!host) return std::unexpected(host.error());
      const int on = openat(*dev, node, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      auto bound = on < 0 ? Failed("opening " + where)
                          : Bind(*host, std::string("/dev/") + node, on, where,
                                 /*read_only=*/false, /*devices=*/true);
      close(*host);
      if (on >= 0) close(on);
      if (!bound) return bound;
    }
    for (const char* dir : {"shm", "pts"}) {
      if (mkdirat(*dev, dir, 0755) != 0) return Failed("mkdir " + target + "/" + dir);
    }
    const int shm = openat(*dev, "shm", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (shm < 0) return Failed("opening " + target + "/shm");
    auto stored = StoreDirectory(shm, target + "/shm", 01777);
    close(shm);
    if (!stored) return stored;
    auto pts = NewMount("devpts", {{"ptmxmode", "0666"}, {"mode", "0620"}},
                        MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
    if (!pts) return std::unexpected(pts.error());
    const int pts_dir = openat(*dev, "pts", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    auto on_pts =
        pts_dir < 0 ? Failed("opening " + target + "/pts") : Attach(*pts, pts_dir, target + "/pts");
    close(*pts);
    if (pts_dir >= 0) close(pts_dir);
    if (!on_pts) return on_pts;
    const struct {
      const char* name;
      const char* to;
    } links[] = {{"ptmx", "pts/ptmx"},
                 {"fd", "/proc/self/fd"},
                 {"stdin", "/proc/self/fd/0"},
                 {"stdout", "/proc/self/fd/1"},
                 {"stderr", "/proc/self/fd/2"}};
    for (const auto& l : links) {
      if (symlinkat(l.to, *dev, l.name) != 0) return Failed("symlink " + target + "/" + l.name);
    }
    return {};
  }();
  close(*dev);
  return in_dev;
}

// `target` (a path inside the sandbox) below the new root, as the guest will see it: a link
// on the way resolves inside the new root (RESOLVE_IN_ROOT), never out to the host's tree
// that sits beside it while the root is built (a link the guest left in a writable bind
// cannot point a mount, or a directory snare creates, at the host).
int OpenInNewRoot(int new_root, const std::string& target, int flags) {
  open_how how = {};
  how.flags = static_cast<uint64_t>(O_PATH | O_CLOEXEC | flags);
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(syscall(SYS_openat2, new_root, target.c_str(), &how, sizeof(how)));
}

// The mount point `target` (an fd). A missing one is created where it harms nothing: in a
// tmpfs of the sandbox's own (a read-only bind refuses it; a writable bind of a host
// directory is not touched).
std::expected<int, std::string> MountPoint(int new_root, const std::string& target,
                                           bool directory) {
  const int point = OpenInNewRoot(new_root, target, 0);
  if (point >= 0 || errno != ENOENT) {
    if (point < 0) return Failed("the mount target " + target);
    return point;
  }
  const size_t slash = target.rfind('/');
  const std::string name = target.substr(slash + 1);
  auto parent = MountPoint(new_root, slash == 0 ? "/" : target.substr(0, slash), true);
  if (!parent) return parent;
  struct statfs fs;
  if (fstatfs(*parent, &fs) != 0 || fs.f_type != TMPFS_MAGIC) {
    close(*parent);
    return std::unexpected("mount target " + target +
                           " does not exist in the sandbox's root (create it, or mount a --tmpfs "
                           "above it)");
  }
  // An O_PATH fd of the parent serves *at() calls that create.
  const int made =
      directory ? mkdirat(*parent, name.c_str(), 0755)
                : openat(*parent, name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  if (made < 0) {
    close(*parent);
    return Failed("creating the mount point " + target);
  }
  if (!directory) close(made);
  const int created = openat(*parent, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  close(*parent);
  if (created < 0) return Failed("opening the mount point " + target);
  return created;
}

std::expected<void, std::string> ApplyAt(int new_root, const MountSpec& m,
                                         const std::map<std::string, int>& prepared) {
  const std::string& target = m.target;
  if (m.kind == MountSpec::Kind::kSymlink) {
    const size_t slash = target.rfind('/');
    auto parent = MountPoint(new_root, slash == 0 ? "/" : target.substr(0, slash), true);
    if (!parent) return std::unexpected(parent.error());
    const int made = symlinkat(m.source.c_str(), *parent, target.substr(slash + 1).c_str());
    close(*parent);
    if (made != 0) return Failed("symlink " + target);
    return {};
  }
  int source = -1;
  bool directory = true;
  const bool binds = m.kind == MountSpec::Kind::kBind || m.kind == MountSpec::Kind::kRoBind;
  if (binds) {
    auto opened = OpenHostPath(m.source);
    if (!opened) return std::unexpected(opened.error());
    source = *opened;
    struct stat st;
    if (fstat(source, &st) != 0) {
      close(source);
      return Failed("the bind source " + m.source);
    }
    directory = S_ISDIR(st.st_mode);
  }
  auto point = MountPoint(new_root, target, directory);
  if (!point) {
    if (source >= 0) close(source);
    return std::unexpected(point.error());
  }
  std::expected<void, std::string> done;
  switch (m.kind) {
    case MountSpec::Kind::kRoBind:
    case MountSpec::Kind::kBind:
      if (auto it = prepared.find(m.target); it != prepared.end()) {
        done = Attach(it->second, *point, target);
      } else {
        done = Bind(source, m.source, *point, target, m.kind == MountSpec::Kind::kRoBind);
      }
      break;
    case MountSpec::Kind::kTmpfs:
      done = StoreDirectory(*point, target, 01777);
      break;
    case MountSpec::Kind::kEmptyDir:
      done = StoreDirectory(*point, target, 0755);
      break;
    case MountSpec::Kind::kDev:
      done = Dev(*point, target);
      break;
    case MountSpec::Kind::kProc: {
      auto proc = NewMount("proc", {}, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
      if (!proc) {
        done = std::unexpected("mounting /proc at " + target + ": " + proc.error());
        break;
      }
      done = Attach(*proc, *point, target);
      close(*proc);
      break;
    }
    case MountSpec::Kind::kSymlink:
      break;
  }
  if (source >= 0) close(source);
  close(*point);
  return done;
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
  const int new_root_point = open(kNewRoot, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (new_root_point < 0) {
    close(*root);
    return Failed(std::string("opening ") + kNewRoot);
  }
  auto bound = Bind(*root, spec.root, new_root_point, "/", /*read_only=*/true);
  close(*root);
  close(new_root_point);
  if (!bound) return bound;
  // The root as mounted now: the fd every mount target resolves in.
  const int new_root = open(kNewRoot, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (new_root < 0) return Failed(std::string("opening ") + kNewRoot);
  for (const MountSpec& m : spec.mounts) {
    if (auto r = ApplyAt(new_root, m, prepared); !r) {
      close(new_root);
      return r;
    }
  }
  close(new_root);
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
