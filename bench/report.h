// Renders stored `snare bench` runs for people (Markdown tables, plots) and for scripts
// (JSON), and compares two runs (two kernels, or two revisions of snare).
#ifndef SNARE_BENCH_REPORT_H_
#define SNARE_BENCH_REPORT_H_

#include <expected>
#include <string>
#include <vector>

#include "results/bench_result.h"

namespace snare::bench {

// A header describing the run (id, date, kernel and variant, CPU, cores, revision, command,
// duration), then one table per suite present, in the order ladder, depth, contention,
// workload, peer, then any other suite as a plain list of rows:
//   ladder:     per params["syscall"]: | rung | platform | ns/call | x native | x signal floor |
//               (ratios to the rows named "native" and "signal-floor" of the same syscall).
//   depth:      | depth | ns/trap |, the least-squares slope per level with its 95% CI, and
//               the ucount share of a trap share(d) = slope*d / (intercept + slope*d) at d = 1
//               and at params["caller_depth"] when a row carries it.
//   contention: | tasks | same-ns | sibling-ns | distinct-uid | (traps/s per process).
//   workload:   | workload | tasks | native | inproc | systrap | systrap/native |.
//   peer:       | subject | native | snare systrap | runsc-ptrace | proot | strace -f |
//               peer/snare ratios |.
std::string RenderMarkdown(const results::BenchRun& run);

// The whole run, rows and samples included, as a JSON object (non-finite numbers as null).
std::string RenderJson(const results::BenchRun& run);

// One table over every measured point (suite, name, platform, params) of either run:
// | suite | point | A | B | B/A |, with a blank cell where a run lacks the point.
std::string RenderComparison(const results::BenchRun& a, const results::BenchRun& b);

// Writes plots of the suites present into `dir` (created if missing): ladder.FORMAT (ns/call
// per rung, log scale, one bar per syscall), depth.FORMAT (points and the fitted line),
// contention.FORMAT (traps/s per process against tasks, one line per mode). `format` is
// "png" or "svg". Each plot's gnuplot data (NAME.dat) and script (NAME.gp) stay beside it
// so that it can be re-rendered by hand. Every file is written atomically (temporary file,
// then rename). Returns the paths written, each plot's image after its data and script;
// empty when the run has none of these suites. Fails when gnuplot is not on PATH.
std::expected<std::vector<std::string>, std::string> RenderPlots(const results::BenchRun& run,
                                                                 const std::string& dir,
                                                                 const std::string& format);

}  // namespace snare::bench

#endif  // SNARE_BENCH_REPORT_H_
