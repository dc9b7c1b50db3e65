#include "bench/report_command.h"

#include <cstdio>
#include <cstdlib>

#include "bench/report.h"
#include "bench/results_store.h"

namespace snare::bench {
namespace {

int Usage(const std::string& message) {
  fprintf(stderr, "snare report: %s\n%s", message.c_str(), kReportUsage);
  return 2;
}

bool ParseId(const std::string& s, int64_t* id) {
  char* end;
  long long v = strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || v <= 0) return false;
  *id = v;
  return true;
}

}  // namespace

int RunReportCommand(const std::vector<std::string>& args) {
  std::string db, plots, format = "png";
  bool json = false, list = false;
  int64_t id = 0, compare_a = 0, compare_b = 0;
  for (const std::string& a : args) {
    if (a.rfind("--db=", 0) == 0) {
      db = a.substr(5);
    } else if (a == "--json") {
      json = true;
    } else if (a == "--list") {
      list = true;
    } else if (a.rfind("--plots=", 0) == 0) {
      plots = a.substr(8);
      if (plots.empty()) return Usage("--plots needs a directory");
    } else if (a.rfind("--format=", 0) == 0) {
      format = a.substr(9);
      if (format != "png" && format != "svg") return Usage("--format is png or svg");
    } else if (a.rfind("--compare=", 0) == 0) {
      std::string v = a.substr(10);
      size_t comma = v.find(',');
      if (comma == std::string::npos || !ParseId(v.substr(0, comma), &compare_a) ||
          !ParseId(v.substr(comma + 1), &compare_b)) {
        return Usage("--compare wants two run ids, e.g. --compare=3,7");
      }
    } else if (a != "latest" && !ParseId(a, &id)) {
      return Usage("unknown argument '" + a + "'");
    }
  }
  if (db.empty()) db = ResultsStore::DefaultPath();
  auto store = ResultsStore::Open(db, /*create=*/false);
  if (!store) {
    fprintf(stderr, "snare report: %s\n", store.error().c_str());
    return 1;
  }
  if (list) {
    auto runs = store->ListRuns();
    if (!runs) {
      fprintf(stderr, "snare report: %s\n", runs.error().c_str());
      return 1;
    }
    printf("| run | started | kernel | variant | cpu | cores | revision | quick | s |\n");
    printf("| ---: | --- | --- | --- | --- | ---: | --- | --- | ---: |\n");
    for (const auto& r : *runs) {
      printf("| %lld | %s | %s | %s | %s | %d | %s | %s | %.0f |\n", static_cast<long long>(r.id),
             r.started_at.c_str(), r.kernel.c_str(), r.kernel_variant.c_str(), r.cpu_model.c_str(),
             r.cores, r.revision.c_str(), r.quick ? "yes" : "no", r.duration_s);
    }
    return 0;
  }
  if (compare_a) {
    auto a = store->Load(compare_a);
    auto b = a ? store->Load(compare_b) : a;
    if (!a || !b) {
      fprintf(stderr, "snare report: %s\n", (!a ? a.error() : b.error()).c_str());
      return 1;
    }
    fputs(RenderComparison(*a, *b).c_str(), stdout);
    return 0;
  }
  if (!id) {
    auto latest = store->Latest();
    if (!latest) {
      fprintf(stderr, "snare report: %s\n", latest.error().c_str());
      return 1;
    }
    id = *latest;
  }
  auto run = store->Load(id);
  if (!run) {
    fprintf(stderr, "snare report: %s\n", run.error().c_str());
    return 1;
  }
  fputs((json ? RenderJson(*run) : RenderMarkdown(*run)).c_str(), stdout);
  if (!plots.empty()) {
    auto written = RenderPlots(*run, plots, format);
    if (!written) {
      fprintf(stderr, "snare report: %s\n", written.error().c_str());
      return 1;
    }
    for (const auto& path : *written) fprintf(stderr, "snare report: wrote %s\n", path.c_str());
  }
  return 0;
}

}  // namespace snare::bench
