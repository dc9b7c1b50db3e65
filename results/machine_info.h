// Where a benchmark ran: kernel, CPU, cores, snare's revision.
#ifndef SNARE_RESULTS_MACHINE_INFO_H_
#define SNARE_RESULTS_MACHINE_INFO_H_

#include "results/bench_result.h"

namespace snare::results {

// Fills started_at, kernel, cpu_model, cores and revision.
void DescribeMachine(BenchRun* run);

}  // namespace snare::results

#endif  // SNARE_RESULTS_MACHINE_INFO_H_
