// What of the host's file tree a guest sees under the default profile, as mounts on top of
// the host's "/" (bound read-only): the system's directories (/usr, /etc, /bin, /sbin, the
// /lib ones, /sys) stay; every other directory of "/" (/home, /root, /var, /srv, /opt, /mnt,
// /media, ...) is covered by an empty directory, so neither the user's data nor another
// program's state or pathname sockets there are reachable. Then, read-only, what programs
// need from under them: each $PATH directory's install root (~/.pyenv for ~/.pyenv/shims,
// /opt/X for /opt/X/bin), and a private, writable $HOME holding only the user's git
// configuration. /var gets a private /var/tmp and /var/run, /var/lock as links into /run.
// The working directory is the profile's to bind (writable), after these.
#ifndef SNARE_SANDBOX_HOST_VIEW_H_
#define SNARE_SANDBOX_HOST_VIEW_H_

#include <string>
#include <vector>

#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

struct HostView {
  std::vector<std::string> top_level;  // the directories of the host's "/" (not links)
  std::string path_env;                // $PATH
  std::string home;                    // $HOME; empty for none
};

// This host's "/" and this process's $PATH and $HOME.
HostView CurrentHostView();

// The directories of "/" every guest sees (read-only), besides the profile's own mounts.
bool IsSystemDirectory(const std::string& name);

// Hides first, then the private $HOME, then the exposed install roots. Paths holding a
// symbolic link are not exposed (a guest may have planted it in an earlier run).
std::vector<MountSpec> HostViewMounts(const HostView& view);

// The directories to expose, read-only, for a program directory `dir` on $PATH: its
// parent when it is a bin, sbin or shims directory (the tool's install root), else itself;
// ~/.local/bin brings ~/.local/lib, not the rest of ~/.local. Empty when `dir` is visible
// anyway.
std::vector<std::string> InstallRoots(const std::string& dir, const std::string& home);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_HOST_VIEW_H_
