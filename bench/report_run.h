// `snare report` (parsed by cmd/report_command.cc): renders a stored run (Markdown, JSON,
// plots), compares two, or lists them all.
#ifndef SNARE_BENCH_REPORT_RUN_H_
#define SNARE_BENCH_REPORT_RUN_H_

#include <cstdint>
#include <string>

namespace snare::bench {

struct ReportOptions {
  std::string db;  // empty: ResultsStore::DefaultPath()
  int64_t id = 0;  // 0: the newest run
  bool json = false;
  bool list = false;
  std::string plots;  // a directory for plots, or empty
  std::string format = "png";
  int64_t compare_a = 0, compare_b = 0;  // both set: compare these runs
};

// Returns the exit status.
int RunReport(const ReportOptions& options);

}  // namespace snare::bench

#endif  // SNARE_BENCH_REPORT_RUN_H_
