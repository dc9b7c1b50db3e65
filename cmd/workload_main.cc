// snare-workload: the programs snare bench measures (bench/workload_programs.h), natively
// and as snare run's guest. An executable of its own, built beside snare: it links Google
// Benchmark, which snare, static, does not.
#include <string>
#include <vector>

#include "cmd/workload_command.h"

int main(int argc, char** argv) {
  return snare::cmd::WorkloadCommand(std::vector<std::string>(argv + 1, argv + argc));
}
