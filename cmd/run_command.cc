#include "cmd/run_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <tuple>

#include "platform/registry/platform_registry.h"
#include "policy/default_policy.h"
#include "policy/seccomp_profile.h"
#include "policy/syscall_rule.h"
#include "sandbox/capabilities.h"
#include "sandbox/policy_file.h"
#include "sandbox/profiles.h"
#include "sandbox/sandbox_options.h"
#include "sentry/run_guest.h"
#include "util/monotonic_clock.h"

namespace snare::cmd {
namespace {

// Taken while the process starts (static initialization), before the command line is parsed.
const uint64_t g_started_ns = util::MonotonicNs();

using StatsFormat = sentry::RunConfig::StatsFormat;

constexpr const char* kUsage =
    "snare run [--profile=sandbox|trace] [--platform=systrap|inproc]\n"
    "                 [--stats[=table|json]] [--stats-file=PATH]\n"
    "                 [--trace[=PATH]] [--trace-file=PATH] [--deny=SYSCALL[:ERRNO]]...\n"
    "                 [--kill=SYSCALL]... [--notify=SYSCALL]... [--spin=N] [--patch]\n"
    "                 [--no-patch] [--patch-after=N]\n"
    "                 [--policy FILE] [--seccomp-profile FILE]\n"
    "                 [--ro-bind SRC DST]... [--bind SRC DST]... [--tmpfs DST]...\n"
    "                 [--dev DST]... [--proc DST]... [--root DIR] [--net=none|host]\n"
    "                 [--uid N] [--gid N] [--hostname NAME] [--rlimit NAME=SOFT[:HARD]]...\n"
    "                 [--time-limit SECONDS] [--tmpfs-size SIZE] [--memory SIZE]\n"
    "                 [--pids N] [--keep-fd N]...\n"
    "                 [--allow=SYSCALL]... [--] PROG [ARGS...]\n"
    "       snare run --list-groups";

// A --deny/--kill rule or a mount option as given, checked once parsing is done.
struct Override {
  std::string flag;  // "--deny", "--kill" or "--notify"
  std::string spec;  // SYSCALL[:ERRNO] or @GROUP[:ERRNO]
};
struct MountFlag {
  std::string flag;                 // "--ro-bind", "--tmpfs", ...
  std::vector<std::string> values;  // SRC DST, or DST
};

std::expected<sandbox::MountSpec, std::string> ParseMountFlag(const MountFlag& m,
                                                              const std::string& cwd) {
  using Kind = sandbox::MountSpec::Kind;
  sandbox::MountSpec spec;
  const bool bind = m.flag == "--ro-bind" || m.flag == "--bind";
  spec.kind = m.flag == "--ro-bind" ? Kind::kRoBind
              : m.flag == "--bind"  ? Kind::kBind
              : m.flag == "--tmpfs" ? Kind::kTmpfs
              : m.flag == "--dev"   ? Kind::kDev
                                    : Kind::kProc;
  if (m.values.size() != (bind ? 2u : 1u)) {
    return std::unexpected(m.flag + (bind ? " needs SRC and DST" : " needs DST"));
  }
  if (bind) {
    auto source = sandbox::ParseMountSource(m.values[0], cwd);
    if (!source) return std::unexpected(m.flag + ": " + source.error());
    spec.source = *source;
  }
  auto target = sandbox::ParseMountTarget(m.values.back());
  if (!target) return std::unexpected(m.flag + ": " + target.error());
  spec.target = *target;
  return spec;
}

}  // namespace

std::expected<RunArgs, ParseExit> ParseRunArgs(const std::vector<std::string>& args) {
  RunArgs out;
  if (auto parsed = ParseRunArgsInto(args, &out); !parsed) return std::unexpected(parsed.error());
  return out;
}

std::expected<void, ParseExit> ParseRunArgsInto(const std::vector<std::string>& args,
                                                RunArgs* into) {
  CLI::App app("Runs PROG with every system call trapped and handed to the sentry.", "snare run");
  SetUpApp(app, kUsage);
  RunArgs& out = *into;
  std::string stats, trace, spin, patch_after;
  std::vector<Override> overrides;
  std::string profile(sandbox::kDefaultProfile);
  app.add_option("--profile", profile,
                 "sandbox (default: confined), trace (no confinement: measuring, tracing) or "
                 "container (confined by a container engine: snare-runtime's)")
      ->option_text("NAME");
  app.add_option("--platform", out.platform,
                 "systrap (default: the sentry is a separate "
                 "process) or inproc (decided inside the guest)")
      ->option_text("NAME");
  app.add_flag("--stats{table}", stats, "per-syscall trap summary at exit: table or json")
      ->option_text("[=table|json]");
  app.add_option("--stats-file", out.config.stats_file,
                 "write the summary to PATH (atomically) instead of stderr")
      ->option_text("PATH");
  app.add_flag("--trace{-}", trace, "one strace-style line per syscall, to stderr or =PATH")
      ->option_text("[=PATH]");
  app.add_option("--trace-file", out.config.trace_file, "trace to PATH (implies --trace)")
      ->option_text("PATH");
  for (const char* flag : {"--allow", "--deny", "--kill", "--notify"}) {
    const std::string f = flag;
    app.add_option_function<std::string>(
           flag,
           [&overrides, flag](const std::string& v) {
             overrides.push_back({flag, v});
           },
           f == "--allow"  ? "let SYSCALL and its aliases, or a @GROUP, run although the profile "
                             "refuses them (e.g. keyctl; argument rules such as the refusal of "
                             "setuid modes stay)"
           : f == "--deny" ? "make SYSCALL and its aliases, or a @GROUP, fail with ERRNO (a name "
                             "like EACCES or a number; default EPERM)"
           : f == "--kill"
               ? "kill the guest with SIGSYS when it makes SYSCALL or an alias, or one of @GROUP"
               : "send SYSCALL and its aliases, or a @GROUP, to the sentry as seccomp user "
                 "notifications (the kernel holds the arguments: traced and counted "
                 "authoritatively)")
        ->allow_extra_args(false)
        ->trigger_on_parse()
        ->option_text(f == "--deny" ? "SYSCALL[:ERRNO]" : "SYSCALL");
  }
  std::string tmpfs_size;
  app.add_option("--tmpfs-size", tmpfs_size,
                 "bytes that /tmp, /run, /dev/shm and every --tmpfs hold together (K, M, G; "
                 "default: a quarter of the machine's memory)")
      ->option_text("SIZE");
  std::string memory, pids;
  app.add_option("--memory", memory,
                 "memory all the guest's processes hold together, tmpfs included (K, M, G; "
                 "default: half the machine's; unlimited: none), by a cgroup where snare can "
                 "make one, else RLIMIT_AS per process")
      ->option_text("SIZE");
  app.add_option("--pids", pids,
                 "processes and threads the guest may have at once (default 1000; unlimited: "
                 "none), by a cgroup where snare can make one, else RLIMIT_NPROC")
      ->option_text("N");
  std::vector<std::string> keep_fds;
  app.add_option_function<std::string>(
         "--keep-fd", [&keep_fds](const std::string& v) { keep_fds.push_back(v); },
         "pass the inherited fd N to the guest (every fd but 0-2 is closed otherwise)")
      ->allow_extra_args(false)
      ->trigger_on_parse()
      ->option_text("N");
  app.add_option("--spin", spin, "spin N times before sleeping on a futex (0: futex only)")
      ->option_text("N");
  bool patch = true;
  app.add_flag("--patch,!--no-patch", patch,
               "systrap (on by default; --no-patch: every call takes the signal): after a "
               "few traps at a `mov $nr, %eax; syscall` site, rewrite it to enter the stub "
               "without a signal (same policy; file and socket I/O, getter, memory, sleep and "
               "sigaction calls only; see --all-to-sentry)");
  bool all_to_sentry = false;
  app.add_flag("--all-to-sentry", all_to_sentry,
               "patched calls ask the sentry too, which decides and counts each (as gVisor's "
               "do; slower). Without it the stub runs the patched calls the policy passes "
               "itself, since the kernel's filter holds its syscall to that policy; --trace "
               "implies it");
  app.add_option("--patch-after", patch_after,
                 "patch a site at its Nth trap (default 16: a patch costs about as much as "
                 "that many traps, so sites a program calls only while it starts stay as they "
                 "are; 1 while more tasks are runnable than there are CPUs, where a trap costs "
                 "more; 1: at the first)")
      ->option_text("N");
  bool list_groups = false;
  app.add_flag("--list-groups", list_groups,
               "list the syscall groups (@NAME) that --deny and --kill accept, and exit");
  // The sandbox, in bubblewrap's words. Mounts keep their command-line order.
  std::vector<MountFlag> mounts;
  for (const auto& [flag, text, help] : {
           std::tuple{"--ro-bind", "SRC DST", "bind the host's SRC read-only at DST"},
           std::tuple{"--bind", "SRC DST", "bind the host's SRC writable at DST"},
           std::tuple{"--tmpfs", "DST", "an empty, private, writable tmpfs at DST"},
           std::tuple{"--dev", "DST", "a minimal /dev (null, zero, random, tty, pts, shm) at DST"},
           std::tuple{"--proc", "DST", "a procfs of the guest's pid namespace at DST"},
       }) {
    const std::string name = flag;
    app.add_option_function<std::vector<std::string>>(
           name,
           [&mounts, name](const std::vector<std::string>& v) {
             mounts.push_back({name, v});
           },
           help)
        ->expected(name == "--ro-bind" || name == "--bind" ? 2 : 1)
        ->allow_extra_args(false)
        ->trigger_on_parse()
        ->option_text(text);
  }
  std::string policy_file, seccomp_profile, root, net, uid, gid, hostname, time_limit;
  std::vector<std::string> rlimits;
  app.add_option("--policy", policy_file,
                 "read sandbox options and syscall rules from a JSON file (command-line "
                 "options override it and add to it)")
      ->option_text("FILE");
  app.add_option("--seccomp-profile", seccomp_profile,
                 "also enforce a container engine's seccomp profile (Docker's or podman's "
                 "JSON, or an OCI config's linux.seccomp): it can only restrict")
      ->option_text("FILE");
  app.add_option("--root", root, "the guest's root: the host's DIR read-only (default /)")
      ->option_text("DIR");
  app.add_option("--net", net, "none (default: only a loopback of its own) or host")
      ->option_text("none|host");
  app.add_option("--uid", uid, "the user id the guest has inside its user namespace")
      ->option_text("N");
  app.add_option("--gid", gid, "the group id the guest has inside its user namespace")
      ->option_text("N");
  app.add_option("--hostname", hostname, "the guest's hostname (default: snare)")
      ->option_text("NAME");
  app.add_option_function<std::string>(
         "--rlimit", [&rlimits](const std::string& v) { rlimits.push_back(v); },
         "a resource limit (nofile, nproc, as, cpu, fsize, core, stack...); HARD defaults "
         "to SOFT")
      ->allow_extra_args(false)
      ->trigger_on_parse()
      ->option_text("NAME=SOFT[:HARD]");
  app.add_option("--time-limit", time_limit,
                 "kill the guest after SECONDS of wall-clock time (snare exits 124)")
      ->option_text("SECONDS");
  app.prefix_command();
  if (auto parsed = ParseArgs(app, args); !parsed) return std::unexpected(parsed.error());
  if (list_groups) return std::unexpected(ParseExit{0, policy::SyscallGroupListing()});

  auto fail = [&](const std::string& message) { return std::unexpected(UsageError(app, message)); };
  if (!platform::PlatformByName(out.platform)) {
    return fail("unknown platform '" + out.platform +
                "' (choose one of: " + std::string(platform::PlatformNames()) + ")");
  }
  sentry::RunConfig& c = out.config;
  if (app.count("--stats")) {
    if (stats == "table") {
      c.stats = StatsFormat::kTable;
    } else if (stats == "json") {
      c.stats = StatsFormat::kJson;
    } else {
      return fail("unknown --stats format '" + stats + "' (table or json)");
    }
  }
  if (app.count("--stats-file")) {
    if (c.stats_file.empty()) return fail("--stats-file needs a path");
    if (c.stats == StatsFormat::kNone) c.stats = StatsFormat::kTable;
  }
  if (app.count("--trace")) {
    c.trace = true;
    if (trace != "-") c.trace_file = trace;
  }
  if (app.count("--trace-file")) {
    if (c.trace_file.empty()) return fail("--trace-file needs a path");
    c.trace = true;
  }
  if (app.count("--spin")) {
    char* end;
    errno = 0;
    unsigned long n = strtoul(spin.c_str(), &end, 10);
    if (spin.empty() || *end || spin[0] == '-' || errno || n > 10'000'000) {
      return fail("--spin wants a count from 0 to 10000000, not '" + spin + "'");
    }
    c.spin_iterations = static_cast<uint32_t>(n);
  }
  // Only an explicit --patch is an error elsewhere: the default applies where it can.
  if (app.count("--patch") && patch && out.platform != "systrap") {
    return fail("--patch rewrites syscall sites for systrap's sentry; --platform=" + out.platform +
                " decides inside the guest (drop --patch, or use --platform=systrap)");
  }
  c.patch = patch && out.platform == "systrap";
  if (app.count("--patch-after")) {
    char* end;
    errno = 0;
    unsigned long n = strtoul(patch_after.c_str(), &end, 10);
    if (patch_after.empty() || *end || patch_after[0] == '-' || errno || n < 1 || n > 65535) {
      return fail(
          "--patch-after wants a count of traps from 1 to 65535 (1: patch at the first), "
          "not '" +
          patch_after + "'");
    }
    if (!c.patch) {
      return fail(
          "--patch-after is for systrap's syscall patching, which is off here (drop "
          "--no-patch, or use --platform=systrap)");
    }
    c.patch_after = static_cast<uint32_t>(n);
    c.patch_after_given = true;
  }
  if (all_to_sentry && !c.patch) {
    return fail(
        "--all-to-sentry is for systrap with syscall patching (without it every call goes to "
        "the sentry already): drop --no-patch, or use --platform=systrap");
  }
  c.all_to_sentry = all_to_sentry;
  char cwd[4096];
  if (!getcwd(cwd, sizeof(cwd))) return fail(std::string("getcwd: ") + strerror(errno));

  // The policy file first; the command line overrides its settings and adds to its lists.
  sandbox::SandboxOptions options, flags;
  if (app.count("--policy")) {
    auto file = sandbox::ReadPolicyFile(policy_file);
    if (!file) return fail(file.error());
    options = std::move(*file);
  }
  if (app.count("--profile")) flags.profile = profile;
  for (const MountFlag& m : mounts) {
    auto mount = ParseMountFlag(m, cwd);
    if (!mount) return fail(mount.error());
    flags.mounts.push_back(*mount);
  }
  // Each flag's value through its parser into `field`: "" or the error, named by the flag.
  auto check = [&app](const char* flag, auto parse, const std::string& value, auto* field) {
    if (!app.count(flag)) return std::string();
    auto v = parse(value);
    if (!v) return std::string(flag) + ": " + v.error();
    *field = *v;
    return std::string();
  };
  if (app.count("--root")) {
    auto dir = sandbox::ParseRoot(root, cwd);
    if (!dir) return fail("--root: " + dir.error());
    flags.root = *dir;
  }
  for (const std::string& e : {
           check("--net", sandbox::ParseNetwork, net, &flags.network),
           check("--uid", sandbox::ParseId, uid, &flags.uid),
           check("--gid", sandbox::ParseId, gid, &flags.gid),
           check("--hostname", sandbox::ParseHostname, hostname, &flags.hostname),
           check("--time-limit", sandbox::ParseTimeLimit, time_limit, &flags.time_limit_s),
           check("--tmpfs-size", sandbox::ParseTmpfsSize, tmpfs_size, &flags.tmpfs_size),
           check("--memory", sandbox::ParseMemoryLimit, memory, &flags.memory),
           check("--pids", sandbox::ParsePidsLimit, pids, &flags.pids),
       }) {
    if (!e.empty()) return fail(e);
  }
  for (const std::string& fd : keep_fds) {
    auto kept = sandbox::ParseKeepFd(fd);
    if (!kept) return fail("--keep-fd: " + kept.error());
    if (fcntl(*kept, F_GETFD) < 0) {
      return fail("--keep-fd: fd " + fd +
                  " is not open (open it in the shell that runs snare, "
                  "e.g. `3<file`)");
    }
    flags.keep_fds.push_back(*kept);
  }
  for (const std::string& spec : rlimits) {
    auto limit = sandbox::ParseRlimit(spec);
    if (!limit) return fail("--rlimit: " + limit.error());
    flags.rlimits.push_back(*limit);
  }
  for (const Override& o : overrides) {
    const policy::Action action = o.flag == "--kill"     ? policy::Action::kKill
                                  : o.flag == "--notify" ? policy::Action::kNotify
                                  : o.flag == "--allow"  ? policy::Action::kPassthrough
                                                         : policy::Action::kDeny;
    auto rule = policy::ParseSyscallRule(o.spec, action, o.flag);
    if (!rule) return fail(rule.error());
    flags.syscall_rules.push_back(std::move(*rule));
  }
  sandbox::Overlay(flags, &options);

  auto spec = sandbox::BuildSandboxSpec(options, cwd);
  if (!spec) return fail(spec.error());
  c.profile = options.profile.value_or(std::string(sandbox::kDefaultProfile));
  c.sandbox = *spec;
  // In a container the engine's profile and capabilities decide; snare keeps only what its
  // interposition needs.
  policy::PolicyBuilder builder =
      c.sandbox.engine_confined ? policy::InterpositionPolicy() : policy::DefaultPolicy();
  if (c.sandbox.confine) sandbox::AddConfinementRules(&builder);
  if (c.sandbox.engine_confined) sandbox::AddTerminalRules(&builder);
  for (const policy::SyscallRule& rule : options.syscall_rules) {
    policy::ApplySyscallRule(rule, &builder);
  }
  // Built where it lives: the table is 82 KB, and each copy on the way faults in new pages.
  if (auto built = builder.BuildInto(&c.policy); !built) return fail(built.error());
  if (app.count("--seccomp-profile")) {
    // includes/excludes of a profile file by the capabilities the guest will hold.
    const policy::ProfileHost host = policy::CurrentProfileHost(
        c.sandbox.confine ? std::vector<std::string>{} : sandbox::EffectiveCapabilityNames());
    auto profile = policy::ReadSeccompProfile(seccomp_profile, host);
    if (!profile) return fail(profile.error());
    if (auto restricted = policy::RestrictByProfileInPlace(*profile, &c.policy); !restricted) {
      return fail("--seccomp-profile " + seccomp_profile + ": " + restricted.error());
    }
  }

  std::vector<std::string> rest = app.remaining();
  // CLI11 reads "--trace=" as a bare --trace; an empty path is a mistake worth naming.
  for (size_t i = 0; i + rest.size() < args.size(); ++i) {
    if (args[i] == "--trace=") return fail("--trace= needs a path (or give --trace alone)");
  }
  if (!rest.empty() && rest[0] == "--") {
    rest.erase(rest.begin());
  } else if (!rest.empty() && rest[0].size() > 1 && rest[0][0] == '-') {
    return fail("unknown option '" + rest[0] + "'");
  }
  if (rest.empty()) return fail("no program given");
  c.argv = std::move(rest);
  return {};
}

int RunCommand(const std::vector<std::string>& args) {
  RunArgs run;
  if (auto parsed = ParseRunArgsInto(args, &run); !parsed) return Report(parsed.error());
  auto platform = platform::PlatformByName(run.platform);
  run.config.end_process = true;  // this process is snare run's alone
  run.config.started_ns = g_started_ns;
  return sentry::RunGuest(*platform, run.config);
}

}  // namespace snare::cmd
