#include "bench/report_run.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "bench/report.h"
#include "results/results_store.h"

namespace snare::bench {
namespace {

using results::ResultsStore;

// Prints `error` for `snare report`; returns the exit status that goes with it.
int Fail(const std::string& error) {
  fmt::print(stderr, "snare report: {}\n", error);
  return 1;
}

// --list: one table row per stored run, oldest first.
int ListRuns(ResultsStore& store) {
  auto runs = store.ListRuns();
  if (!runs) return Fail(runs.error());
  fmt::print("| run | started | kernel | variant | cpu | cores | revision | quick | s |\n");
  fmt::print("| ---: | --- | --- | --- | --- | ---: | --- | --- | ---: |\n");
  for (const auto& r : *runs) {
    fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {:.0f} |\n", r.id, r.started_at, r.kernel,
               r.kernel_variant, r.cpu_model, r.cores, r.revision, r.quick ? "yes" : "no",
               r.duration_s);
  }
  return 0;
}

}  // namespace

int RunReport(const ReportOptions& options) {
  auto store = ResultsStore::Open(options.db.empty() ? ResultsStore::DefaultPath() : options.db,
                                  /*create=*/false);
  if (!store) return Fail(store.error());
  if (options.list) return ListRuns(*store);
  if (options.compare_a) {
    auto a = store->Load(options.compare_a);
    auto b = a ? store->Load(options.compare_b) : a;
    if (!a || !b) return Fail(!a ? a.error() : b.error());
    fputs(RenderComparison(*a, *b).c_str(), stdout);
    return 0;
  }
  int64_t id = options.id;
  if (!id) {
    auto latest = store->Latest();
    if (!latest) return Fail(latest.error());
    id = *latest;
  }
  auto run = store->Load(id);
  if (!run) return Fail(run.error());
  fputs((options.json ? RenderJson(*run) : RenderMarkdown(*run)).c_str(), stdout);
  if (!options.plots.empty()) {
    auto written = RenderPlots(*run, options.plots, options.format);
    if (!written) return Fail(written.error());
    for (const auto& path : *written) fmt::print(stderr, "snare report: wrote {}\n", path);
  }
  return 0;
}

}  // namespace snare::bench
