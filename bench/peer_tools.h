// The other interposers snare is compared with (gVisor's runsc with its ptrace platform,
// proot, strace -f), each as the prefix that runs a command under it, when installed.
#ifndef SNARE_BENCH_PEER_TOOLS_H_
#define SNARE_BENCH_PEER_TOOLS_H_

#include <string>
#include <vector>

#include "bench/bench_context.h"

namespace snare::bench {

struct PeerTool {
  std::string platform;             // "runsc-ptrace", "proot", "strace"
  std::vector<std::string> prefix;  // prefix + argv runs argv under it
};

// The peers this machine can run; a note in the report names each one skipped, and why.
std::vector<PeerTool> AvailablePeerTools(BenchContext& context);

}  // namespace snare::bench

#endif  // SNARE_BENCH_PEER_TOOLS_H_
