// What a user asks of a run beyond its profile (profiles.h), in bubblewrap's terms, from
// the command line (cmd/run_command.cc) or a policy file (policy_file.h): mounts after the
// profile's own, another root, the network, the ids and hostname the guest sees, resource
// and time limits, and syscall rules. The parsers of each value live here too, so that a
// flag and its policy-file key accept the same values and fail with the same message.
#ifndef SNARE_SANDBOX_SANDBOX_OPTIONS_H_
#define SNARE_SANDBOX_SANDBOX_OPTIONS_H_

#include <sys/types.h>

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/syscall_rule.h"
#include "sandbox/sandbox_spec.h"

namespace snare::sandbox {

struct SandboxOptions {
  std::optional<std::string> profile;
  std::optional<std::string> root;  // a host directory, bound read-only at "/"
  std::vector<MountSpec> mounts;    // after the profile's, in order
  std::optional<SandboxSpec::Network> network;
  std::optional<uid_t> uid;  // inside the guest's user namespace
  std::optional<gid_t> gid;
  std::optional<std::string> hostname;
  std::vector<RlimitSpec> rlimits;  // in order: a later one for a resource wins
  std::optional<double> time_limit_s;
  std::optional<uint64_t> tmpfs_size;
  std::optional<uint64_t> memory;  // 0: unlimited
  std::optional<uint64_t> pids;    // 0: unlimited
  std::vector<int> keep_fds;
  std::vector<policy::SyscallRule> syscall_rules;  // in order, after the profile's rules
};

// `later` on top of `base`: its settings replace base's; its mounts, rlimits and syscall
// rules come after base's (so they win where they touch the same thing).
void Overlay(const SandboxOptions& later, SandboxOptions* base);

// The spec of the chosen profile with the options applied. Options that only a confined run
// has (mounts, root, network, ids, hostname) are refused under a profile that does not
// confine. cwd: where snare runs (the guest's working directory when it exists inside).
std::expected<SandboxSpec, std::string> BuildSandboxSpec(const SandboxOptions& options,
                                                         const std::string& cwd);

// The values, as `--FLAG VALUE` and the policy file's keys give them. Errors say what was
// wrong with the value and what to write instead; the caller adds where it came from.

// A bind's source: an existing host path (relative to base_dir), made canonical.
std::expected<std::string, std::string> ParseMountSource(std::string_view source,
                                                         const std::string& base_dir);
// A path inside the sandbox: absolute, no "." or ".." components, not "/" itself.
std::expected<std::string, std::string> ParseMountTarget(std::string_view target);
// A --root directory: an existing host directory holding /dev, /proc and /tmp to mount on.
std::expected<std::string, std::string> ParseRoot(std::string_view dir,
                                                  const std::string& base_dir);
// "none" or "host".
std::expected<SandboxSpec::Network, std::string> ParseNetwork(std::string_view value);
// A uid or gid from 0 to 4294967294.
std::expected<uint32_t, std::string> ParseId(std::string_view value);
// 1 to 64 letters, digits, '-', '_' and '.'.
std::expected<std::string, std::string> ParseHostname(std::string_view value);
// NAME=SOFT[:HARD]: NAME as `ulimit`/prlimit(1) call it (nofile, nproc, as, cpu, fsize,
// core, stack, data, memlock, locks, sigpending, msgqueue, nice, rtprio, rttime); values in
// decimal with an optional K, M, G or T (powers of 1024), or "unlimited"; HARD defaults to
// SOFT, and may not exceed the hard limit snare itself runs under.
std::expected<RlimitSpec, std::string> ParseRlimit(std::string_view spec);
// The same limit as a resource name and values given apart (the policy file's form).
std::expected<RlimitSpec, std::string> MakeRlimit(std::string_view name, std::string_view soft,
                                                  std::string_view hard);
// Seconds of wall-clock time, more than 0 (fractions allowed), at most a year.
std::expected<double, std::string> ParseTimeLimit(std::string_view value);
std::expected<double, std::string> CheckTimeLimit(double seconds);
// The tmpfs total: bytes with an optional K, M, G or T, at least 1M.
std::expected<uint64_t, std::string> ParseTmpfsSize(std::string_view value);
// --memory: bytes (K, M, G, T), at least 16M, or "unlimited" (0).
std::expected<uint64_t, std::string> ParseMemoryLimit(std::string_view value);
// --pids: a task count from 2, or "unlimited" (0).
std::expected<uint64_t, std::string> ParsePidsLimit(std::string_view value);
// An inherited fd the guest keeps: 3 to 1019 (0-2 are always kept; 1020 and up are snare's).
std::expected<int, std::string> ParseKeepFd(std::string_view value);

// The resource names ParseRlimit knows, for messages: "nofile, nproc, ...".
std::string RlimitNames();

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_SANDBOX_OPTIONS_H_
