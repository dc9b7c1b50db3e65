// The command lines snare parses: `snare run ...` (CLI11 and the sandbox options' values)
// and snare-runtime's OCI runtime command line as container engines call it. The input is
// argv split on NUL or newline. Bad input must come back as an error (a usage message),
// never a crash, a hang or an exception.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cmd/run_command.h"
#include "oci/runtime_command_line.h"
#include "sandbox/sandbox_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> argv(1);
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      argv.emplace_back();
    } else {
      argv.back() += c;
    }
  }
  if (auto run = snare::cmd::ParseRunArgs(argv); !run && run.error().text.empty()) {
    __builtin_trap();  // a usage error must say what
  }
  if (auto oci = snare::oci::ParseRuntimeCommandLine(argv); !oci && oci.error().empty()) {
    __builtin_trap();
  }
  namespace sb = snare::sandbox;
  for (const std::string& a : argv) {
    (void)sb::ParseMountTarget(a);
    (void)sb::ParseNetwork(a);
    (void)sb::ParseId(a);
    (void)sb::ParseHostname(a);
    (void)sb::ParseRlimit(a);
    (void)sb::ParseTimeLimit(a);
  }
  return 0;
}
