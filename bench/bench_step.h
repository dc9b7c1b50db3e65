// One measured point of `snare bench`: a progress label, how to take one repetition's
// samples, and the row the median will be stored in.
#ifndef SNARE_BENCH_BENCH_STEP_H_
#define SNARE_BENCH_BENCH_STEP_H_

#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "results/bench_result.h"

namespace snare::bench {

struct BenchStep {
  std::string label;
  std::function<std::expected<std::vector<double>, std::string>()> measure;
  results::BenchRow row;   // without value/samples
  int max_reps = 1 << 30;  // long real workloads run in fewer rounds
  // Side figures `measure` records per repetition (e.g. the stub's mean trap cost); each
  // one's median is stored as a param of the row, next to its value.
  std::shared_ptr<std::map<std::string, std::vector<double>>> figures;
  // Side texts (e.g. the names of failed tests); the last repetition's are stored as params.
  std::shared_ptr<std::map<std::string, std::string>> texts;
};

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_STEP_H_
