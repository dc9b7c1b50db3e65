// Finds the program `snare run` was asked to run, the way a shell would, and reports the
// failures a shell reports: 127 for "not found", 126 for "found but cannot execute".
#ifndef SNARE_SENTRY_PROGRAM_RESOLVER_H_
#define SNARE_SENTRY_PROGRAM_RESOLVER_H_

#include <expected>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace snare::sentry {

struct ResolveError {
  int exit_status;      // 127 or 126
  std::string message;  // "snare: NAME: command not found"
};

// name: as given; path_env: $PATH (nullptr: the shell's default).
std::expected<std::string, ResolveError> ResolveProgram(std::string_view name,
                                                        const char* path_env);

// A "#!" script runs as its interpreter with the script's path as an argument, as the
// kernel's binfmt_script does (nested up to 4 levels). The stub loads ELF files only, so the
// first image of a run is found here; later execve calls are handled by the stub.
struct Executable {
  std::string path;               // an ELF file
  std::vector<std::string> argv;  // the argv it receives
  // Every file the kernel would open to run it: the program, then each script's interpreter.
  std::vector<std::string> files;
};
std::expected<Executable, ResolveError> ResolveInterpreters(const std::string& path,
                                                            std::vector<std::string> argv);

// ResolveProgram(argv[0]) and then ResolveInterpreters.
std::expected<Executable, ResolveError> ResolveExecutable(const std::vector<std::string>& argv,
                                                          const char* path_env);

// The same as the guest will see it (another root, programs in its mounts): in a child that
// first calls `enter`, which gives it the guest's file tree and working directory, so that
// paths, $PATH, "#!" lines and symlinks mean what they will mean inside. The paths returned
// are inside the guest's tree.
std::expected<Executable, ResolveError> ResolveExecutableInside(
    const std::function<std::expected<void, std::string>()>& enter,
    const std::vector<std::string>& argv, const char* path_env);

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_PROGRAM_RESOLVER_H_
