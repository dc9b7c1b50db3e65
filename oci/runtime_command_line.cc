#include "oci/runtime_command_line.h"

#include <string_view>

namespace snare::oci {
namespace {

// "--name=value" or "--name value": the value and how many arguments it took, or 0.
size_t TakeValue(const std::vector<std::string>& argv, size_t i, std::string_view name,
                 std::string* value) {
  const std::string& a = argv[i];
  if (a == name) {
    if (i + 1 >= argv.size()) return 0;
    *value = argv[i + 1];
    return 2;
  }
  if (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=') {
    *value = a.substr(name.size() + 1);
    return 1;
  }
  return 0;
}

bool Matches(const std::string& a, std::string_view name) {
  return a == name ||
         (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=');
}

}  // namespace

std::expected<RuntimeCommandLine, std::string> ParseRuntimeCommandLine(
    const std::vector<std::string>& argv) {
  RuntimeCommandLine cl;
  size_t i = 0;
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.empty() || a[0] != '-') break;
    if (a == "--version" || a == "-v") {
      cl.version = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      cl.help = true;
      continue;
    }
    if (a == "--debug" || a == "--systemd-cgroup") {
      cl.systemd_cgroup |= a == "--systemd-cgroup";
      cl.global.push_back(a);
      continue;
    }
    bool known = false;
    for (std::string_view name : {"--root", "--log", "--log-format", "--criu", "--rootless"}) {
      if (!Matches(a, name)) continue;
      std::string value;
      const size_t n = TakeValue(argv, i, name, &value);
      if (n == 0)
        return std::unexpected("the global option " + std::string(name) + " needs a value");
      for (size_t k = 0; k < n; ++k) cl.global.push_back(argv[i + k]);
      i += n - 1;
      if (name == "--root") cl.root = value;
      if (name == "--log") cl.log = value;
      if (name == "--log-format") cl.log_format = value;
      known = true;
      break;
    }
    if (!known) return std::unexpected("unknown global option '" + a + "'");
  }
  if (i < argv.size()) {
    cl.command = argv[i];
    cl.args.assign(argv.begin() + static_cast<long>(i) + 1, argv.end());
  }
  if (cl.command == "exec") {
    // runc exec [OPTIONS] ID [COMMAND ARGS...]: the options with values, then the id.
    for (size_t k = 0; k < cl.args.size(); ++k) {
      const std::string& a = cl.args[k];
      std::string value;
      bool valued = false;
      for (std::string_view name :
           {"--process", "-p", "--console-socket", "--cwd", "--env", "-e", "--pid-file",
            "--process-label", "--apparmor", "--user", "-u", "--additional-gids", "-g", "--cap",
            "-c", "--preserve-fds", "--cgroup"}) {
        if (size_t n = TakeValue(cl.args, k, name, &value); n) {
          if (name == "--process" || name == "-p") cl.process_file = value;
          k += n - 1;
          valued = true;
          break;
        }
      }
      if (valued || (!a.empty() && a[0] == '-')) continue;
      cl.id = a;
      if (k + 1 < cl.args.size()) cl.exec_command = static_cast<long>(k + 1);
      break;
    }
    if (cl.id.empty()) return std::unexpected("exec: no container id given");
    return cl;
  }
  if (cl.command != "create" && cl.command != "run") return cl;
  // Their options with values; everything else is a flag, and the id the one positional.
  for (size_t k = 0; k < cl.args.size(); ++k) {
    const std::string& a = cl.args[k];
    std::string value;
    if (size_t n = TakeValue(cl.args, k, "--bundle", &value); n) {
      cl.bundle = value;
      k += n - 1;
      continue;
    }
    if (size_t n = TakeValue(cl.args, k, "-b", &value); n) {
      cl.bundle = value;
      k += n - 1;
      continue;
    }
    bool valued = false;
    for (std::string_view name : {"--console-socket", "--pid-file", "--preserve-fds"}) {
      if (size_t n = TakeValue(cl.args, k, name, &value); n) {
        k += n - 1;
        valued = true;
        break;
      }
    }
    if (valued || (!a.empty() && a[0] == '-')) continue;
    cl.id = a;
  }
  if (cl.id.empty()) return std::unexpected(cl.command + ": no container id given");
  return cl;
}

}  // namespace snare::oci
