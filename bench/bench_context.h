// What every suite of `snare bench` shares: the options, this snare binary (the guest of
// every measurement), how many tasks the sweeps go up to, notes for the report, and helpers
// that build and run the measured commands.
#ifndef SNARE_BENCH_BENCH_CONTEXT_H_
#define SNARE_BENCH_BENCH_CONTEXT_H_

#include <expected>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_options.h"

namespace snare::bench {

class BenchContext {
 public:
  explicit BenchContext(const BenchOptions& options);
  ~BenchContext();
  BenchContext(const BenchContext&) = delete;
  BenchContext& operator=(const BenchContext&) = delete;

  const BenchOptions& options() const { return options_; }
  const std::string& self() const { return self_; }
  int max_tasks() const { return max_tasks_; }

  // `snare-workload ARGS...`, the one beside this snare
  std::vector<std::string> Workload(const std::vector<std::string>& args) const;
  // `snare run --platform=P [--profile=trace] FLAGS... -- ARGV...`: the trace profile
  // (interposition alone) unless FLAGS name another.
  std::vector<std::string> UnderSnare(const std::string& platform,
                                      const std::vector<std::string>& flags,
                                      const std::vector<std::string>& argv) const;
  // The profile a `snare run` with FLAGS measures under UnderSnare.
  static std::string ProfileOf(const std::vector<std::string>& flags);

  // Runs argv (pinned to `cpu` when >= 0) and parses the JSON object it prints last.
  static std::expected<nlohmann::json, std::string> RunJson(const std::vector<std::string>& argv,
                                                            int cpu = -1);
  // Runs argv and returns its wall time in milliseconds; fails unless it exits 0.
  // keep_stdout false: what it prints is read and thrown away (a program printing much).
  static std::expected<double, std::string> RunTimed(const std::vector<std::string>& argv,
                                                     bool keep_stdout = true);

  // A note printed under the report (each text once).
  void Note(const std::string& note);
  const std::vector<std::string>& notes() const { return notes_; }

  // A scratch directory for the run, removed with the context.
  const std::string& ScratchDir();
  // One in memory (tmpfs, /dev/shm) where there is one, else ScratchDir(): for what a
  // measured run writes beside its work (snare's --stats-file, which fsyncs), so that the
  // instrument's disk flush is not timed with the program.
  const std::string& MemoryScratchDir();

  // The user-namespace depth snare bench itself runs at (set by the depth suite).
  int caller_depth = 0;

 private:
  const BenchOptions& options_;
  std::string self_;
  int max_tasks_;
  std::vector<std::string> notes_;
  std::string scratch_;
  std::string memory_scratch_;
};

// "%g" of a number of seconds, as the workloads take it.
std::string SecondsArg(double seconds);

}  // namespace snare::bench

#endif  // SNARE_BENCH_BENCH_CONTEXT_H_
