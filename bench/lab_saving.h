// What the reserve kernel would take off a trap, carried over from `snare lab` to the
// programs report: the latest stock and reserve lab runs in the store give the per-trap cost
// over user-namespace depth, and their ratio at the depth the guest runs at is the share of
// a trap's signal delivery that the ucount charge costs there.
#ifndef SNARE_BENCH_LAB_SAVING_H_
#define SNARE_BENCH_LAB_SAVING_H_

#include <expected>
#include <string>
#include <vector>

#include "results/bench_result.h"
#include "results/results_store.h"

namespace snare::bench {

inline constexpr char kLabSavingSuite[] = "lab-saving";

// From one stock and one reserve lab run (their "depth" rows): a row of suite
// kLabSavingSuite whose value is 1 - reserve(depth) / stock(depth), each read off the
// least-squares line through its variant's points, with both runs' ids and costs as params.
std::expected<results::BenchRow, std::string> LabSavingRow(const results::BenchRun& stock,
                                                           const results::BenchRun& reserve,
                                                           int depth);

// The same from the newest stock and reserve runs stored; an error naming what is missing
// (and the command that stores it) when there are none.
std::expected<results::BenchRow, std::string> LatestLabSaving(results::ResultsStore& store,
                                                              int depth);

}  // namespace snare::bench

#endif  // SNARE_BENCH_LAB_SAVING_H_
