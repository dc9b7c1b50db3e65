#include "kernel/lab/lab_command.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "bench/bench_result.h"
#include "bench/line_fit.h"
#include "bench/machine_info.h"
#include "bench/results_store.h"
#include "kernel/lab/guest_boot.h"
#include "kernel/lab/initramfs.h"
#include "kernel/lab/kernel_builder.h"
#include "kernel/lab/lab_paths.h"

namespace snare::lab {
namespace {

struct LabOptions {
  std::string action;
  std::vector<std::string> variants;
  bool quick = false;
  bool kvm = true;
  std::string db, cache, kernel_dir;
  double timeout_s = 0;  // 0: by action
};

int Usage(const std::string& message) {
  fprintf(stderr, "snare lab: %s\n%s", message.c_str(), kLabUsage);
  return 2;
}

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

const bench::BenchRow* Find(const bench::BenchRun& run, const std::string& suite,
                            const std::string& key, const std::string& value) {
  for (const auto& row : run.rows) {
    if (row.suite != suite) continue;
    auto it = row.params.find(key);
    if (it != row.params.end() && it->second == value) return &row;
  }
  return nullptr;
}

std::string Cell(const bench::BenchRow* row, const char* fmt = "%.0f") {
  if (!row) return "";
  char buf[64];
  snprintf(buf, sizeof(buf), fmt, row->value);
  return buf;
}

// The comparison the lab exists for: per-trap cost over depth, its slope, contention.
void PrintSummary(const std::vector<bench::BenchRun>& runs) {
  printf(
      "\n| variant | run | depth 0 | depth 1 | depth 8 | depth 32 | slope ns/level (95%% CI) | "
      "contention, 1 task (traps/s) | 2 tasks (per process) | checks |\n");
  printf("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |\n");
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
    if (auto fit = bench::FitLine(xs, ys); fit) {
      char buf[96];
      snprintf(buf, sizeof(buf), "%.2f (%.2f to %.2f)", fit->slope, fit->slope - fit->slope_ci95,
               fit->slope + fit->slope_ci95);
      slope = buf;
    }
    const bench::BenchRow* c1 = nullptr;
    const bench::BenchRow* c2 = nullptr;
    for (const auto& row : run.rows) {
      if (row.suite != "contention" || row.name != "same-ns") continue;
      if (row.params.count("tasks") && row.params.at("tasks") == "1") c1 = &row;
      if (row.params.count("tasks") && row.params.at("tasks") == "2") c2 = &row;
    }
    printf("| %s | %lld | %s | %s | %s | %s | %s | %s | %s | %d/%d |\n", run.kernel_variant.c_str(),
           static_cast<long long>(run.id), Cell(Find(run, "depth", "depth", "0")).c_str(),
           Cell(Find(run, "depth", "depth", "1")).c_str(),
           Cell(Find(run, "depth", "depth", "8")).c_str(),
           Cell(Find(run, "depth", "depth", "32")).c_str(), slope.c_str(), Cell(c1).c_str(),
           Cell(c2).c_str(), passed, total);
  }
}

bench::BenchRow CheckRow(const LabCheck& check) {
  bench::BenchRow row;
  row.suite = "check";
  row.name = check.name;
  row.platform = "native";
  row.value = check.pass ? 1 : 0;
  row.unit = "pass";
  row.samples = {row.value};
  if (!check.detail.empty()) row.params["detail"] = check.detail.substr(0, 200);
  return row;
}

int Run(const LabOptions& o, const std::string& command_line) {
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
      return Usage("unknown variant '" + v + "' (known: " + names + ")");
    }
  }
  const std::string cache = o.cache.empty() ? DefaultCacheDir() : o.cache;
  std::optional<bench::ResultsStore> store;
  if (o.action == "run") {
    auto opened =
        bench::ResultsStore::Open(o.db.empty() ? bench::ResultsStore::DefaultPath() : o.db,
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
  Progress(kvm    ? "KVM boots a lab kernel: using it"
           : o.kvm ? "KVM unavailable or hangs (20 s probe): using TCG"
                   : "KVM not tried (--no-kvm): using TCG");

  const bool smoke = o.action == "smoke";
  const long traps = smoke || o.quick ? 100000 : 1000000;
  std::string ab_args = smoke ? "lab.mode=checks" : "lab.mode=all";
  ab_args += " lab.traps=" + std::to_string(traps);
  ab_args += " lab.maxdepth=32 lab.reps=" + std::string(o.quick ? "3" : "5");
  std::vector<bench::BenchRun> runs;
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
    bench::BenchRun run;
    bench::DescribeMachine(&run);
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

}  // namespace

int RunLabCommand(const std::vector<std::string>& args, const std::string& command_line) {
  if (args.empty()) return Usage("missing action (build, run, smoke)");
  LabOptions o;
  o.action = args[0];
  if (o.action != "build" && o.action != "run" && o.action != "smoke") {
    return Usage("unknown action '" + o.action + "'");
  }
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag, std::string* out) {
      std::string prefix = std::string(flag) + "=";
      if (a.rfind(prefix, 0) != 0) return false;
      *out = a.substr(prefix.size());
      return true;
    };
    std::string v;
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--no-kvm") {
      o.kvm = false;
    } else if (value("--db", &o.db) || value("--cache", &o.cache) ||
               value("--kernel-dir", &o.kernel_dir)) {
    } else if (value("--variants", &v)) {
      size_t start = 0;
      while (start <= v.size()) {
        size_t comma = v.find(',', start);
        if (comma == std::string::npos) comma = v.size();
        o.variants.push_back(v.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (value("--timeout", &v)) {
      char* end;
      o.timeout_s = strtod(v.c_str(), &end);
      if (v.empty() || *end || !(o.timeout_s > 0)) return Usage("--timeout wants seconds");
    } else {
      return Usage("unknown argument '" + a + "'");
    }
  }
  return Run(o, command_line);
}

}  // namespace snare::lab
