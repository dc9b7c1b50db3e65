// Host files a confined guest must see although the profile hides their directory: the
// program given to `snare run` (and its script interpreters) living under /tmp, /run, a
// --tmpfs or a directory the host view hides, and the paths named as its arguments. Each is
// bound read-only at its own path (a program the host view hid, with its own directory).
#ifndef SNARE_SANDBOX_HIDDEN_FILES_H_
#define SNARE_SANDBOX_HIDDEN_FILES_H_

#include <string>
#include <vector>

#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

// The mount of spec that holds path inside the sandbox (the last one at the longest
// matching target), or null when the host's root holds it.
const MountSpec* MountHolding(const SandboxSpec& spec, const std::string& path);

// Adds a read-only bind for each absolute path that a tmpfs or /dev of spec would hide.
// Nothing changes for an unconfined spec or another root (the guest sees that root's files).
void ExposeHiddenFiles(const std::vector<std::string>& paths, SandboxSpec* spec);

// The arguments that are absolute paths of existing host files or directories the profile
// hides: the user named them for the program to use (`gcc -c /src/x.c`), so each is bound
// read-only at its path. One holding a symbolic link is left hidden: a guest may have made it.
void ExposeNamedPaths(const std::vector<std::string>& args, SandboxSpec* spec);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_HIDDEN_FILES_H_
