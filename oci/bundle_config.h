// The bundle's config.json rewritten so that the container's process runs under snare (the
// way NVIDIA's runtime edits the spec and hands it to runc): its args become
// `/.snare/snare run FLAGS -- ARGS`, the static snare binary and an output directory are
// bound in, and `linux.seccomp` moves from runc (which would filter the sentry) to snare's
// policy (which filters the guest and traces each refusal). The profile goes in a directory
// of its own, bound read-only at /.snare/policy: every exec reads it there, so nothing a
// process of the container writes (root's included) can change what a later exec gets.
//
// Per-container options come as annotations:
//   dev.snare.platform    systrap (default) or inproc
//   dev.snare.profile     container (default: the engine confines, snare interposes),
//                         sandbox (snare's own namespaces inside the container) or trace
//   dev.snare.trace       true: every call traced to OUTPUT/trace.txt
//   dev.snare.stats       true or json (OUTPUT/stats.json), table (OUTPUT/stats.txt)
//   dev.snare.patch       false: no syscall patching (systrap patches by default)
//   dev.snare.output-dir  the host directory OUTPUT is made in, as OUTPUT-DIR/ID (default:
//                         BUNDLE/snare, which an engine removes with the container)
#ifndef SNARE_OCI_BUNDLE_CONFIG_H_
#define SNARE_OCI_BUNDLE_CONFIG_H_

#include <expected>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace snare::oci {

inline constexpr char kSnareInContainer[] = "/.snare/snare";
inline constexpr char kOutputInContainer[] = "/.snare/out";
inline constexpr char kPolicyInContainer[] = "/.snare/policy";
// Set on a rewritten config: a second create of the same bundle leaves it as it is.
inline constexpr char kWrappedAnnotation[] = "dev.snare.wrapped";

struct SnareOptions {
  std::string platform = "systrap";
  std::string profile = "container";
  bool trace = false;
  std::string stats;          // "", "json" or "table"
  std::optional<bool> patch;  // unset: snare run's default (on under systrap)
  std::string output_dir;     // dev.snare.output-dir, absolute
};

// The annotations of `config`; an error names the annotation and the values it takes.
std::expected<SnareOptions, std::string> ReadSnareOptions(const nlohmann::json& config);

// Where the container's trace and stats go on the host.
std::string OutputDirectory(const SnareOptions& options, const std::string& bundle,
                            const std::string& id);

// Where the container's seccomp profile goes on the host (seccomp.json there): beside the
// bundle's config, which only the engine's user writes.
std::string PolicyDirectory(const std::string& bundle);

// `/.snare/snare run FLAGS -- args` for a process of the container: the first one (its
// outputs OUTPUT/trace.txt, stats.json) or, with `exec_tag`, one `exec` starts (OUTPUT/
// exec-TAG-trace.txt, ...); `seccomp`: the container has a seccomp profile (POLICY/seccomp.json).
nlohmann::json SnareCommand(const SnareOptions& options, bool seccomp, const std::string& exec_tag,
                            const nlohmann::json& args);

struct RewrittenConfig {
  nlohmann::json config;
  nlohmann::json seccomp;
};
// `config` rewritten (see above). `snare_binary`: the static snare on the host; `output`:
// the host directory for OUTPUT; `policy`: the host directory for POLICY. The seccomp
// profile, if any, is in `seccomp` (null if none), to be written to POLICY/seccomp.json.
std::expected<RewrittenConfig, std::string> RewriteConfig(const nlohmann::json& config,
                                                          const SnareOptions& options,
                                                          const std::string& snare_binary,
                                                          const std::string& output,
                                                          const std::string& policy);

}  // namespace snare::oci

#endif  // SNARE_OCI_BUNDLE_CONFIG_H_
