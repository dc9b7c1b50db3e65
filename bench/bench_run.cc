#include "bench/bench_run.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "bench/bench_context.h"
#include "bench/lab_saving.h"
#include "bench/report.h"
#include "bench/suites.h"
#include "bench/trap_sweeps.h"
#include "results/machine_info.h"
#include "results/results_store.h"
#include "util/monotonic_clock.h"

namespace snare::bench {
namespace {

void Progress(bool tty, size_t i, size_t n, const std::string& label) {
  if (tty) {
    fprintf(stderr, "\r\033[Ksnare bench: %zu/%zu %s", i, n, label.c_str());
  } else if (i == 1 || i == n || i % 10 == 0) {
    fprintf(stderr, "snare bench: %zu/%zu %s\n", i, n, label.c_str());
  }
}

// Repetitions interleave: every point once per round, so a drifting machine affects all
// points alike.
std::expected<std::vector<results::BenchRow>, std::string> Measure(
    const std::vector<BenchStep>& steps, int reps) {
  const bool tty = isatty(2);
  std::map<size_t, std::vector<double>> samples;
  size_t done = 0, total = 0;
  for (const BenchStep& s : steps) total += static_cast<size_t>(std::min(reps, s.max_reps));
  for (int rep = 0; rep < reps; ++rep) {
    for (size_t i = 0; i < steps.size(); ++i) {
      if (rep >= steps[i].max_reps) continue;
      Progress(tty, ++done, total, steps[i].label);
      auto got = steps[i].measure();
      if (!got) return std::unexpected(steps[i].label + ": " + got.error());
      samples[i].insert(samples[i].end(), got->begin(), got->end());
    }
  }
  if (tty) fprintf(stderr, "\n");
  std::vector<results::BenchRow> rows;
  for (size_t i = 0; i < steps.size(); ++i) {
    results::BenchRow row = steps[i].row;
    row.samples = samples[i];
    row.value = results::Median(row.samples);
    if (steps[i].figures) {
      for (const auto& [name, values] : *steps[i].figures) {
        if (!values.empty()) row.params[name] = fmt::format("{:.6g}", results::Median(values));
      }
    }
    if (steps[i].texts) {
      for (const auto& [name, text] : *steps[i].texts) row.params[name] = text;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

int RunBench(const BenchOptions& options, const std::string& command_line) {
  // Open (and check) the store first: a bad --db fails before minutes of measuring.
  const std::string db = options.db.empty() ? results::ResultsStore::DefaultPath() : options.db;
  auto store = results::ResultsStore::Open(db, /*create=*/true);
  if (!store) {
    fprintf(stderr, "snare bench: %s\n", store.error().c_str());
    return 1;
  }
  results::BenchRun run;
  results::DescribeMachine(&run);
  run.command = command_line;
  run.quick = options.quick;
  const double t0 = util::MonotonicSeconds();

  BenchContext context(options);
  std::vector<BenchStep> steps;
  const auto& suites = options.suites;
  if (suites.count("ladder")) AddLadderSuite(context, &steps);
  if (suites.count("depth")) AddDepthSuite(context, &steps);
  if (suites.count("contention")) AddContentionSuite(context, &steps);
  if (suites.count("workloads")) AddWorkloadSuite(context, &steps);
  if (suites.count("peers")) AddPeerSuite(context, &steps);
  if (suites.count("programs")) AddProgramSuite(context, &steps);
  if (suites.count("memory")) AddMemorySuite(context, &steps);
  if (suites.count("cpython")) AddCpythonSuite(context, &steps);
  if (suites.count("stress")) AddStressSuite(context, &steps);
  if (suites.count("crowded")) AddCrowdedSuite(context, &steps);
  auto rows = Measure(steps, options.reps);
  if (!rows) {
    fprintf(stderr, "\nsnare bench: %s (nothing stored)\n", rows.error().c_str());
    return 1;
  }
  run.rows = std::move(*rows);
  for (auto& row : run.rows) {
    if (row.suite == "depth") row.params["caller_depth"] = std::to_string(context.caller_depth);
  }
  if (suites.count("programs")) {
    // Under the trace profile the guests share snare's user namespace.
    auto saving = LatestLabSaving(*store, CallerUserNamespaceDepth());
    if (saving) {
      run.rows.push_back(std::move(*saving));
    } else {
      context.Note("the programs report's reserve-kernel column is blank: " + saving.error());
    }
  }
  run.duration_s = util::MonotonicSeconds() - t0;
  auto id = store->Save(run);
  if (!id) {
    fprintf(stderr, "snare bench: %s (nothing stored)\n", id.error().c_str());
    return 1;
  }
  run.id = *id;
  if (options.json) {
    fputs(RenderJson(run).c_str(), stdout);
  } else {
    fputs(RenderMarkdown(run).c_str(), stdout);
    for (const auto& note : context.notes()) printf("\nnote: %s\n", note.c_str());
    printf("\nstored as run %lld in %s (snare report --db=%s %lld)\n", static_cast<long long>(*id),
           db.c_str(), db.c_str(), static_cast<long long>(*id));
  }
  return 0;
}

}  // namespace snare::bench
