// The OCI runtime command line as container engines call runc: global options, then a
// command and its own options (podman: `create --bundle B --pid-file P ID`, `start ID`,
// `state ID`, `kill ID SIGNAL`, `delete --force ID`, `features`, `--version`).
#ifndef SNARE_OCI_RUNTIME_COMMAND_LINE_H_
#define SNARE_OCI_RUNTIME_COMMAND_LINE_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::oci {

struct RuntimeCommandLine {
  std::vector<std::string> global;  // the global options as given (runc gets them as they are)
  std::string root;                 // --root (empty: runc's default)
  std::string log;                  // --log
  std::string log_format;           // --log-format (text, json)
  bool systemd_cgroup = false;
  bool version = false;           // --version / -v
  bool help = false;              // --help / -h with no command
  std::string command;            // "create", "run", "start", ... (empty with --version)
  std::vector<std::string> args;  // after the command, as given
  // create and run only:
  std::string bundle = ".";  // --bundle / -b
  std::string id;            // the container id (create, run, exec)
  // exec only: --process FILE (a process.json), or where in `args` the command begins
  // (-1: none on the command line).
  std::string process_file;
  long exec_command = -1;
};

// Fails on a global option that needs a value and has none, or an unknown global option
// (runc's own: --debug, --log, --log-format, --root, --criu, --systemd-cgroup, --rootless).
std::expected<RuntimeCommandLine, std::string> ParseRuntimeCommandLine(
    const std::vector<std::string>& argv);

}  // namespace snare::oci

#endif  // SNARE_OCI_RUNTIME_COMMAND_LINE_H_
