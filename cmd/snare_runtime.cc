// snare-runtime: the OCI runtime (oci/), one static executable. Bound into each container
// as /.snare/snare, the same file is the snare that runs the container's process (`snare
// run` only), whatever libraries the container's root holds.
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cmd/run_command.h"
#include "oci/runtime_main.h"

int main(int argc, char** argv) {
  std::string name = argc > 0 ? argv[0] : "snare-runtime";
  name = basename(name.data());
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (name == "snare") {
    if (!args.empty() && args[0] == "run") {
      return snare::cmd::RunCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    }
    fprintf(stderr, "snare (in snare-runtime): only 'snare run' is in this executable\n");
    return 2;
  }
  char self[PATH_MAX];
  if (!realpath("/proc/self/exe", self)) {
    fprintf(stderr, "snare-runtime: cannot find its own executable: %s\n", strerror(errno));
    return 1;
  }
  return snare::oci::RuntimeMain(args, self);
}
