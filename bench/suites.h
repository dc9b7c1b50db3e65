// The suites of `snare bench`, each adding its measured points (see bench_options.h for
// what each measures). One file per suite: ladder_suite.cc, depth_suite.cc, ...
#ifndef SNARE_BENCH_SUITES_H_
#define SNARE_BENCH_SUITES_H_

#include <vector>

#include "bench/bench_context.h"
#include "bench/bench_step.h"

namespace snare::bench {

// One syscall per rung, from native through the filters and the signal floor to both
// platforms.
void AddLadderSuite(BenchContext& context, std::vector<BenchStep>* steps);
// The signal floor at user-namespace depth 0..max (one sweep per round; sets
// context.caller_depth).
void AddDepthSuite(BenchContext& context, std::vector<BenchStep>* steps);
// 1..max_tasks trapping processes in three ucount-sharing modes.
void AddContentionSuite(BenchContext& context, std::vector<BenchStep>* steps);
// The seed threads' workloads natively and under both platforms.
void AddWorkloadSuite(BenchContext& context, std::vector<BenchStep>* steps);
// gVisor's ptrace platform, proot and strace -f beside snare.
void AddPeerSuite(BenchContext& context, std::vector<BenchStep>* steps);
// Real programs (find, python3, git, tar, sqlite3, gcc) natively, under both platforms and
// under the peers, with the stub's trap counts and the sentry's CPU.
void AddProgramSuite(BenchContext& context, std::vector<BenchStep>* steps);
// The sentry's memory per guest thread.
void AddMemorySuite(BenchContext& context, std::vector<BenchStep>* steps);
// CPython's regression suite per module, natively and under the three platforms (sandbox
// profile), compared test by test.
void AddCpythonSuite(BenchContext& context, std::vector<BenchStep>* steps);
// stress-ng's stressors natively and under each platform: bogo ops/s and exit status.
void AddStressSuite(BenchContext& context, std::vector<BenchStep>* steps);
// python3 -c pass and find natively and under systrap --patch beside one CPU hog per CPU.
void AddCrowdedSuite(BenchContext& context, std::vector<BenchStep>* steps);

}  // namespace snare::bench

#endif  // SNARE_BENCH_SUITES_H_
