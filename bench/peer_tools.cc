#include "bench/peer_tools.h"

#include <unistd.h>

#include <cstdlib>

#include "util/path_search.h"

namespace snare::bench {

std::vector<PeerTool> AvailablePeerTools(BenchContext& context) {
  struct Candidate {
    PeerTool peer;
    std::string tool;
  };
  const std::vector<Candidate> candidates = {
      {{"runsc-ptrace", {"runsc", "--platform=ptrace", "--network=none", "do"}}, "runsc"},
      {{"proot", {"proot"}}, "proot"},
      {{"strace", {"strace", "-f", "-o", "/dev/null"}}, "strace"},
  };
  std::vector<PeerTool> available;
  const char* path = getenv("PATH");
  for (const Candidate& c : candidates) {
    if (!util::FindExecutable(c.tool, path ? path : util::kDefaultPath)) {
      context.Note(c.peer.platform + " skipped: " + c.tool +
                   " is not installed (tools/setup.sh installs it)");
    } else if (c.peer.platform == "runsc-ptrace" && geteuid() != 0) {
      context.Note("runsc-ptrace skipped: runsc do needs root");
    } else {
      available.push_back(c.peer);
    }
  }
  return available;
}

}  // namespace snare::bench
