// Where a benchmark ran: kernel, CPU, cores, snare's revision.
#ifndef SNARE_BENCH_MACHINE_INFO_H_
#define SNARE_BENCH_MACHINE_INFO_H_

#include "bench/bench_result.h"

namespace snare::bench {

// Fills started_at, kernel, cpu_model, cores and revision.
void DescribeMachine(BenchRun* run);

}  // namespace snare::bench

#endif  // SNARE_BENCH_MACHINE_INFO_H_
