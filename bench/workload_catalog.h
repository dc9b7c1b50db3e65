// What snare bench knows of its measured programs without linking them: the executable that
// holds them (snare-workload, built beside snare; Google Benchmark stays out of snare itself,
// which is static so that its own start costs a guest as little as it can) and the seed
// workloads' names.
#ifndef SNARE_BENCH_WORKLOAD_CATALOG_H_
#define SNARE_BENCH_WORKLOAD_CATALOG_H_

#include <string>
#include <vector>

namespace snare::bench {

inline constexpr const char* kWorkloadExecutable = "snare-workload";

// The snare-workload beside the snare at self (a path to the executable).
std::string WorkloadExecutableBeside(const std::string& self);

// Seed workload names: signal1-processes, signal1-threads, tasklist, thread-create-join.
const std::vector<std::string>& SeedWorkloadNames();

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOAD_CATALOG_H_
