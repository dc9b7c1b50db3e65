#include "sentry/run_options.h"

#include <cerrno>
#include <cstdlib>

#include "platform/platform_registry.h"
#include "sentry/errno_name.h"

namespace snare {
namespace {

bool TakeValue(const std::string& arg, const std::string& flag, std::string* value) {
  if (arg.rfind(flag + "=", 0) != 0) return false;
  *value = arg.substr(flag.size() + 1);
  return true;
}

std::expected<RunOptions::Override, std::string> ParseOverride(const std::string& spec,
                                                               Disposition d) {
  std::string name = spec, err_name;
  size_t colon = spec.find(':');
  if (colon != std::string::npos) {
    name = spec.substr(0, colon);
    err_name = spec.substr(colon + 1);
  }
  const SyscallInfo* info = FindSyscallByName(name.c_str());
  if (!info)
    return std::unexpected("unknown syscall '" + name + "' (use the kernel's name, e.g. openat)");
  int err = EPERM;
  if (colon != std::string::npos && err_name.empty()) {
    return std::unexpected("missing errno after ':' in '" + spec + "' (e.g. " + name + ":EPERM)");
  }
  if (!err_name.empty()) {
    if (d != Disposition::kDeny) return std::unexpected("--kill takes no errno: " + spec);
    err = ErrnoFromName(err_name.c_str());
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
  return RunOptions::Override{info->nr, d, err};
}

}  // namespace

std::expected<RunOptions, std::string> ParseRunOptions(const std::vector<std::string>& args) {
  RunOptions o;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--") {
      ++i;
      break;
    }
    if (a.rfind("--", 0) != 0) break;
    if (TakeValue(a, "--platform", &v)) {
      if (!platform::PlatformByName(v)) {
        return std::unexpected("unknown platform '" + v +
                               "' (choose one of: " + std::string(platform::PlatformNames()) + ")");
      }
      o.platform = v;
    } else if (a == "--stats") {
      o.stats = RunOptions::StatsFormat::kTable;
    } else if (TakeValue(a, "--stats", &v)) {
      if (v == "table") {
        o.stats = RunOptions::StatsFormat::kTable;
      } else if (v == "json") {
        o.stats = RunOptions::StatsFormat::kJson;
      } else {
        return std::unexpected("unknown --stats format '" + v + "' (table or json)");
      }
    } else if (TakeValue(a, "--stats-file", &v)) {
      if (v.empty()) return std::unexpected(std::string("--stats-file needs a path"));
      o.stats_file = v;
      if (o.stats == RunOptions::StatsFormat::kNone) o.stats = RunOptions::StatsFormat::kTable;
    } else if (a == "--trace") {
      o.trace = true;
    } else if (TakeValue(a, "--trace", &v)) {
      if (v.empty()) return std::unexpected(std::string("--trace= needs a path"));
      o.trace = true;
      o.trace_file = v;
    } else if (TakeValue(a, "--deny", &v) || TakeValue(a, "--kill", &v)) {
      auto d = a.rfind("--deny", 0) == 0 ? Disposition::kDeny : Disposition::kKill;
      auto ov = ParseOverride(v, d);
      if (!ov) return std::unexpected(ov.error());
      o.overrides.push_back(*ov);
    } else if (TakeValue(a, "--spin", &v)) {
      char* end;
      unsigned long n = strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end || n > 10'000'000) {
        return std::unexpected("--spin wants a count from 0 to 10000000, not '" + v + "'");
      }
      o.spin_iterations = static_cast<uint32_t>(n);
    } else {
      return std::unexpected("unknown option '" + a + "'");
    }
  }
  o.argv.assign(args.begin() + static_cast<long>(i), args.end());
  if (o.argv.empty()) return std::unexpected(std::string("no program given"));
  return o;
}

}  // namespace snare
