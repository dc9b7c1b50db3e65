// `snare run --policy FILE`: the sandbox options and syscall rules as JSON, e.g.
//
//   {"profile": "sandbox",
//    "root": "/srv/rootfs",
//    "mounts": [{"ro-bind": ["/usr", "/usr"]}, {"bind": "/data"}, {"tmpfs": "/scratch"},
//               {"dev": "/dev2"}, {"proc": "/proc2"}],
//    "net": "none", "uid": 1000, "gid": 1000, "hostname": "box",
//    "rlimits": {"nofile": 256, "as": "1G", "core": "0:0"},
//    "time_limit": 30,
//    "syscalls": {"deny": ["mkdir", "@file-open:EACCES"], "kill": ["ptrace"]}}
//
// Every key is optional and means what the flag of the same name means (sandbox_options.h);
// a bind given one path binds it at the same path; an rlimit is a number or the flag's
// "SOFT[:HARD]" text; relative sources and roots are taken from the file's directory. Within
// the file, "kill" rules come after "deny" rules (the later rule for a syscall wins).
// Unknown keys, wrong types and bad values are errors naming the key's path in the file.
#ifndef SNARE_SANDBOX_POLICY_FILE_H_
#define SNARE_SANDBOX_POLICY_FILE_H_

#include <expected>
#include <string>
#include <string_view>

#include "sandbox/sandbox_options.h"

namespace snare::sandbox {

// Reads and parses the file at path; errors start with the path.
std::expected<SandboxOptions, std::string> ReadPolicyFile(const std::string& path);

// Parses text; `name` starts error messages, base_dir resolves relative paths.
std::expected<SandboxOptions, std::string> ParsePolicyFile(std::string_view text,
                                                           std::string_view name,
                                                           const std::string& base_dir);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_POLICY_FILE_H_
