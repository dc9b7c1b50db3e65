#include <fstream>

#include "bench/peer_tools.h"
#include "bench/suites.h"

namespace snare::bench {

void AddPeerSuite(BenchContext& context, std::vector<BenchStep>* steps) {
  struct Peer {
    std::string platform;
    std::vector<std::string> prefix;
  };
  std::vector<Peer> available = {
      {"native", {}},
      {"systrap", {context.self(), "run", "--platform=systrap", "--profile=trace", "--"}},
  };
  for (const PeerTool& tool : AvailablePeerTools(context)) {
    available.push_back({tool.platform, tool.prefix});
  }
  const BenchOptions& o = context.options();
  const long calls = o.quick ? 2000 : 20000;
  struct Subject {
    std::string name;
    std::vector<std::string> argv;
    bool ns_per_call;
  };
  std::vector<Subject> subjects = {
      {"getppid", context.Workload({"trap-loop", "native", "getppid", std::to_string(calls)}),
       true}};
  if (!o.quick) {
    const std::string dir = context.ScratchDir();
    std::ofstream(dir + "/hello.c") << "#include <stdio.h>\nint main(void) { puts(\"hello\"); "
                                       "return 0; }\n";
    subjects.push_back({"tar-czf-usr-include",
                        {"/bin/sh", "-c", "tar czf - /usr/include 2>/dev/null | wc -c"},
                        false});
    subjects.push_back({"python3-files",
                        {"/usr/bin/python3", "-c",
                         "import os,tempfile,shutil\n"
                         "d=tempfile.mkdtemp()\n"
                         "for i in range(300): open(f'{d}/{i}','w').write('x'*1000)\n"
                         "print(sum(len(open(f'{d}/{i}').read()) for i in range(300)))\n"
                         "shutil.rmtree(d)"},
                        false});
    subjects.push_back(
        {"gcc-hello", {"/usr/bin/gcc", "-O0", "-o", dir + "/hello", dir + "/hello.c"}, false});
  }
  for (const auto& subject : subjects) {
    for (const auto& peer : available) {
      std::vector<std::string> argv = peer.prefix;
      argv.insert(argv.end(), subject.argv.begin(), subject.argv.end());
      BenchStep step;
      step.label = "peer " + subject.name + " " + peer.platform;
      const bool per_call = subject.ns_per_call;
      step.measure = [argv, per_call]() -> std::expected<std::vector<double>, std::string> {
        if (!per_call) {
          auto ms = BenchContext::RunTimed(argv);
          if (!ms) return std::unexpected(ms.error());
          return std::vector<double>{*ms};
        }
        auto j = BenchContext::RunJson(argv);
        if (!j) return std::unexpected(j.error());
        return std::vector<double>{(*j)["ns_per_call"].get<double>()};
      };
      step.row = {"peer", subject.name, peer.platform, {}, 0, per_call ? "ns/call" : "ms", {}};
      if (!per_call) step.max_reps = 3;
      steps->push_back(std::move(step));
    }
  }
}

}  // namespace snare::bench
