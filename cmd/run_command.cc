#include "cmd/run_command.h"

#include <cerrno>
#include <cstdlib>

#include "abi/errno_name.h"
#include "abi/syscall_table.h"
#include "platform/registry/platform_registry.h"
#include "policy/default_policy.h"
#include "sentry/run_guest.h"

namespace snare::cmd {
namespace {

using policy::Action;
using policy::Disposition;
using StatsFormat = sentry::RunConfig::StatsFormat;

constexpr const char* kUsage =
    "snare run [--platform=systrap|inproc] [--stats[=table|json]] [--stats-file=PATH]\n"
    "                 [--trace[=PATH]] [--trace-file=PATH] [--deny=SYSCALL[:ERRNO]]...\n"
    "                 [--kill=SYSCALL]... [--spin=N] [--] PROG [ARGS...]";

struct Override {
  std::string flag;  // "--deny" or "--kill"
  std::string spec;  // SYSCALL[:ERRNO]
};

// "getppid:EACCES" -> (110, deny EACCES); errors name what was wrong and what to write.
std::expected<std::pair<uint32_t, Disposition>, std::string> ParseOverride(const Override& o) {
  std::string name = o.spec, err_name;
  const size_t colon = o.spec.find(':');
  if (colon != std::string::npos) {
    name = o.spec.substr(0, colon);
    err_name = o.spec.substr(colon + 1);
  }
  const abi::SyscallInfo* info = abi::FindSyscallByName(name.c_str());
  if (!info) {
    return std::unexpected("unknown syscall '" + name + "' (use the kernel's name, e.g. openat)");
  }
  if (o.flag == "--kill") {
    if (colon != std::string::npos) return std::unexpected("--kill takes no errno: " + o.spec);
    return std::pair{static_cast<uint32_t>(info->nr), Disposition{Action::kKill, 0}};
  }
  if (colon != std::string::npos && err_name.empty()) {
    return std::unexpected("missing errno after ':' in '" + o.spec + "' (e.g. " + name + ":EPERM)");
  }
  int err = EPERM;
  if (!err_name.empty()) {
    err = abi::ErrnoFromName(err_name.c_str());
    if (err < 0) {
      char* end;
      long v = strtol(err_name.c_str(), &end, 10);
      if (*end || v <= 0 || v > 4095) {
        return std::unexpected("unknown errno '" + err_name +
                               "' (use a name like EPERM or a number)");
      }
      err = static_cast<int>(v);
    }
  }
  return std::pair{static_cast<uint32_t>(info->nr),
                   Disposition{Action::kDeny, static_cast<uint16_t>(err)}};
}

}  // namespace

std::expected<RunArgs, ParseExit> ParseRunArgs(const std::vector<std::string>& args) {
  CLI::App app("Runs PROG with every system call trapped and handed to the sentry.", "snare run");
  SetUpApp(app, kUsage);
  RunArgs out;
  std::string stats, trace, spin;
  std::vector<Override> overrides;
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
  for (const char* flag : {"--deny", "--kill"}) {
    app.add_option_function<std::string>(
           flag,
           [&overrides, flag](const std::string& v) {
             overrides.push_back({flag, v});
           },
           std::string(flag) == "--deny"
               ? "make SYSCALL fail with ERRNO (a name like EACCES or a number; default EPERM)"
               : "kill the guest with SIGSYS when it makes SYSCALL")
        ->allow_extra_args(false)
        ->trigger_on_parse()
        ->option_text(std::string(flag) == "--deny" ? "SYSCALL[:ERRNO]" : "SYSCALL");
  }
  app.add_option("--spin", spin, "spin N times before sleeping on a futex (0: futex only)")
      ->option_text("N");
  app.prefix_command();
  if (auto parsed = ParseArgs(app, args); !parsed) return std::unexpected(parsed.error());

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
  policy::PolicyBuilder builder = policy::DefaultPolicy();
  for (const Override& o : overrides) {
    auto parsed = ParseOverride(o);
    if (!parsed) return fail(parsed.error());
    builder.Set(parsed->first, parsed->second);
  }
  auto table = builder.TryBuild();
  if (!table) return fail(table.error());
  c.policy = *table;

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
  return out;
}

int RunCommand(const std::vector<std::string>& args) {
  auto parsed = ParseRunArgs(args);
  if (!parsed) return Report(parsed.error());
  auto platform = platform::PlatformByName(parsed->platform);
  return sentry::RunGuest(*platform, parsed->config);
}

}  // namespace snare::cmd
