#include "kernel/lab/lab_run.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "kernel/lab/guest_boot.h"
#include "kernel/lab/initramfs.h"
#include "kernel/lab/kernel_builder.h"
#include "kernel/lab/lab_paths.h"
#include "results/bench_result.h"
#include "results/line_fit.h"
#include "results/machine_info.h"
#include "results/results_store.h"

namespace snare::lab {
namespace {

void Progress(const std::string& line) {
  if (isatty(2)) {
    fprintf(stderr, "\r\033[Ksnare lab: %s", line.c_str());
  } else {
    fprintf(stderr, "snare lab: %s\n", line.c_str());
  }
}

void EndProgress() {
  if (isatty(2)) fprintf(stderr, "\n");
}

const results::BenchRow* Find(const results::BenchRun& run, const std::string& suite,
                              const std::string& key, const std::string& value) {
  for (const auto& row : run.rows) {
    if (row.suite != suite) continue;
    auto it = row.params.find(key);
    if (it != row.params.end() && it->second == value) return &row;
  }
  return nullptr;
}

std::string Cell(const results::BenchRow* row) {
  return row ? fmt::format("{:.0f}", row->value) : "";
}

// The comparison the lab exists for: per-trap cost over depth, its slope, contention.
void PrintSummary(const std::vector<results::BenchRun>& runs) {
  fmt::print(
      "\n| variant | run | depth 0 | depth 1 | depth 8 | depth 32 | slope ns/level (95% CI) | "
      "sigqueue()+dequeue | contention, 1 task (traps/s) | 2 tasks (per process) | checks |\n");
  fmt::print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |\n");
  for (const auto& run : runs) {
    std::vector<double> xs, ys;
    int passed = 0, total = 0;
    for (const auto& row : run.rows) {
      if (row.suite == "depth") {
        xs.push_back(std::atof(row.params.at("depth").c_str()));
        ys.push_back(row.value);
      }
      if (row.suite == "check") {
        ++total;
        passed += row.value > 0.5;
      }
    }
    std::string slope;
    if (auto fit = results::FitLine(xs, ys); fit) {
      slope = fmt::format("{:.2f} ({:.2f} to {:.2f})", fit->slope, fit->slope - fit->slope_ci95,
                          fit->slope + fit->slope_ci95);
    }
    const results::BenchRow* c1 = nullptr;
    const results::BenchRow* c2 = nullptr;
    const results::BenchRow* queued = nullptr;
    for (const auto& row : run.rows) {
      if (row.suite == "ladder" && row.name == "sigqueue") queued = &row;
      if (row.suite != "contention" || row.name != "same-ns") continue;
      if (row.params.count("tasks") && row.params.at("tasks") == "1") c1 = &row;
      if (row.params.count("tasks") && row.params.at("tasks") == "2") c2 = &row;
    }
    fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} |\n", run.kernel_variant,
               run.id, Cell(Find(run, "depth", "depth", "0")),
               Cell(Find(run, "depth", "depth", "1")), Cell(Find(run, "depth", "depth", "8")),
               Cell(Find(run, "depth", "depth", "32")), slope, Cell(queued), Cell(c1), Cell(c2),
               passed, total);
  }
}

results::BenchRow CheckRow(const LabCheck& check) {
  results::BenchRow row;
  row.suite = "check";
  row.name = check.name;
  row.platform = "native";
  row.value = check.pass ? 1 : 0;
  row.unit = "pass";
  row.samples = {row.value};
  if (!check.detail.empty()) row.params["detail"] = check.detail.substr(0, 200);
  return row;
}

}  // namespace

int RunLab(const LabOptions& o, const std::string& command_line) {
  auto kernel_dir = FindKernelDir(o.kernel_dir);
  if (!kernel_dir) {
    fprintf(stderr, "snare lab: %s\n", kernel_dir.error().c_str());
    return 1;
  }
  std::vector<std::string> known = KnownVariants(*kernel_dir);
  std::vector<std::string> variants = o.variants.empty() ? known : o.variants;
  for (const auto& v : variants) {
    if (std::find(known.begin(), known.end(), v) == known.end()) {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
      fprintf(stderr, "snare lab: unknown variant '%s' (known: %s)\n", v.c_str(), names.c_str());
      return 2;
    }
  }
  const std::string cache = o.cache.empty() ? DefaultCacheDir() : o.cache;
  std::optional<results::ResultsStore> store;
  if (o.action == "run") {
    auto opened =
        results::ResultsStore::Open(o.db.empty() ? results::ResultsStore::DefaultPath() : o.db,
                                    /*create=*/true);
    if (!opened) {
      fprintf(stderr, "snare lab: %s\n", opened.error().c_str());
      return 1;
    }
    store.emplace(std::move(*opened));
  }

  std::map<std::string, KernelBuild> builds;
  for (const auto& v : variants) {
    auto build = BuildKernel(*kernel_dir, cache, v, Progress);
    if (!build) {
      EndProgress();
      fprintf(stderr, "snare lab: %s\n", build.error().c_str());
      return 1;
    }
    builds[v] = *build;
  }
  EndProgress();
  if (o.action == "build") {
    for (const auto& [v, b] : builds)
      printf("%s: %s%s\n", v.c_str(), b.bzimage.c_str(), b.reused ? " (cached)" : "");
    return 0;
  }

  const std::string initrd = cache + "/lab-initramfs-" + std::to_string(getpid()) + ".cpio";
  if (auto written = WriteLabInitramfs(initrd); !written) {
    fprintf(stderr, "snare lab: initramfs: %s\n", written.error().c_str());
    return 1;
  }
  bool kvm = o.kvm && KvmWorks(builds[variants[0]].bzimage, initrd);
  Progress(kvm     ? "KVM boots a lab kernel: using it"
           : o.kvm ? "KVM unavailable or hangs (20 s probe): using TCG"
                   : "KVM not tried (--no-kvm): using TCG");

  const bool smoke = o.action == "smoke";
  const long traps = smoke || o.quick ? 100000 : 1000000;
  std::string ab_args = smoke ? "lab.mode=checks" : "lab.mode=all";
  ab_args += " lab.traps=" + std::to_string(traps);
  ab_args += " lab.maxdepth=32 lab.reps=" + std::string(o.quick ? "3" : "5");
  std::vector<results::BenchRun> runs;
  int failed_checks = 0;
  for (const auto& v : variants) {
    BootOptions boot;
    boot.bzimage = builds[v].bzimage;
    boot.initrd = initrd;
    boot.variant = v;
    boot.accel = kvm ? Accel::kKvm : Accel::kTcgIcount;
    boot.cpus = 1;
    boot.lab_args = ab_args;
    boot.timeout_s = o.timeout_s > 0 ? o.timeout_s : (smoke ? 900 : 3600);
    auto result = BootLabKernel(boot, Progress);
    if (!result) {
      EndProgress();
      unlink(initrd.c_str());
      fprintf(stderr, "snare lab: %s\n", result.error().c_str());
      return 1;
    }
    results::BenchRun run;
    results::DescribeMachine(&run);
    run.kernel = result->kernel;
    run.kernel_variant = v;
    run.cpu_model += " (qemu " + AccelName(boot.accel) + ")";
    run.cores = result->cpus;
    run.command = command_line;
    run.quick = o.quick || smoke;
    run.rows = result->rows;
    for (const auto& check : result->checks) {
      run.rows.push_back(CheckRow(check));
      if (!check.pass) {
        ++failed_checks;
        fprintf(stderr, "\nsnare lab: %s: check %s failed: %s\n", v.c_str(), check.name.c_str(),
                check.detail.c_str());
      }
    }
    run.duration_s = result->seconds;
    if (!smoke && !o.quick) {
      BootOptions multi = boot;
      multi.accel = kvm ? Accel::kKvm : Accel::kTcgMulti;
      multi.cpus = 2;
      multi.lab_args = "lab.mode=contention lab.contention=1";
      auto contention = BootLabKernel(multi, Progress);
      if (!contention) {
        EndProgress();
        unlink(initrd.c_str());
        fprintf(stderr, "snare lab: %s\n", contention.error().c_str());
        return 1;
      }
      for (auto row : contention->rows) {
        row.params["accel"] = AccelName(multi.accel);
        run.rows.push_back(std::move(row));
      }
      run.duration_s += contention->seconds;
    }
    runs.push_back(std::move(run));
  }
  EndProgress();
  unlink(initrd.c_str());

  if (store) {
    for (auto& run : runs) {
      auto id = store->Save(run);
      if (!id) {
        fprintf(stderr, "snare lab: %s\n", id.error().c_str());
        return 1;
      }
      run.id = *id;
    }
  }
  int total_checks = 0;
  for (const auto& run : runs) {
    for (const auto& row : run.rows) total_checks += row.suite == "check";
  }
  if (smoke) {
    printf("snare lab smoke: %zu kernels built and booted (%s), %d/%d checks passed\n", runs.size(),
           kvm ? "KVM" : "TCG", total_checks - failed_checks, total_checks);
  } else {
    PrintSummary(runs);
    if (store && runs.size() >= 2) {
      printf("\nstored in %s; compare with: snare report --compare=%lld,%lld\n",
             store->path().c_str(), static_cast<long long>(runs[0].id),
             static_cast<long long>(runs[1].id));
    }
  }
  return failed_checks ? 1 : 0;
}

}  // namespace snare::lab
