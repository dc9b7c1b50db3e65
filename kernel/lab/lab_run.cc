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

#include "kernel/lab/build_steps.h"
#include "kernel/lab/guest_boot.h"
#include "kernel/lab/initramfs.h"
#include "kernel/lab/kernel_builder.h"
#include "kernel/lab/lab_paths.h"
#include "kernel/lab/selftest_builder.h"
#include "kernel/lab/selftest_table.h"
#include "results/bench_result.h"
#include "results/line_fit.h"
#include "results/machine_info.h"
#include "results/results_store.h"

namespace snare::lab {
namespace {

constexpr const char* kDebugConfig = "debug";

// kselftest's timeouts are for hardware; emulated vCPUs get this many times as long.
constexpr int kSelftestTimeoutFactor = 4;

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

// The console had no splat: a check row, so a run with one fails like a failed check.
LabCheck ConsoleCheck(const std::string& boot, const std::vector<std::string>& splats) {
  std::string detail;
  for (const auto& line : splats) detail += (detail.empty() ? "" : "\n") + line;
  return {"kernel-console-" + boot, splats.empty(),
          splats.empty() ? "no lockdep, KASAN, KFENCE, SLUB, WARN or BUG report" : detail};
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
  std::vector<std::string> configs = KnownConfigs(*kernel_dir);
  if (std::find(configs.begin(), configs.end(), o.config) == configs.end()) {
    std::string names;
    for (const auto& c : configs) names += (names.empty() ? "" : ", ") + c;
    fprintf(stderr,
            "snare lab: unknown configuration '%s' (known: %s; each is %s/config/NAME.config)\n",
            o.config.c_str(), names.c_str(), kernel_dir->c_str());
    return 2;
  }
  const std::string cache = o.cache.empty() ? DefaultCacheDir() : o.cache;
  std::optional<results::ResultsStore> store;
  if (o.action == "run" || o.action == "selftests") {
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
    auto build = BuildKernel(*kernel_dir, cache, v, o.config, Progress);
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
      printf("%s: %s%s\n", ConfiguredName(v, o.config).c_str(), b.bzimage.c_str(),
             b.reused ? " (cached)" : "");
    return 0;
  }

  const bool smoke = o.action == "smoke";
  const bool selftests_only = o.action == "selftests";
  std::optional<SelftestBuild> selftests;
  if (o.action == "run" || selftests_only) {
    auto built = BuildSelftests(cache, Progress);
    EndProgress();
    if (!built) {
      fprintf(stderr, "snare lab: %s\n", built.error().c_str());
      return 1;
    }
    selftests = std::move(*built);
  }

  // Removed however RunLab returns.
  struct Initrds {
    std::vector<std::string> paths;
    ~Initrds() {
      for (const auto& p : paths) unlink(p.c_str());
    }
  } initrds;
  const std::string initrd = cache + "/lab-initramfs-" + std::to_string(getpid()) + ".cpio";
  initrds.paths.push_back(initrd);
  if (auto written = WriteLabInitramfs(initrd); !written) {
    fprintf(stderr, "snare lab: initramfs: %s\n", written.error().c_str());
    return 1;
  }
  // The selftests travel in an initramfs of their own: the measured boots stay as they were.
  std::string selftest_initrd;
  double selftest_seconds = 0;
  if (selftests) {
    std::vector<InitramfsFile> files;
    std::string list;
    for (const Selftest& t : selftests->tests) {
      std::string bytes = ReadFile(t.path);
      if (bytes.empty()) {
        fprintf(stderr, "snare lab: selftest %s is missing from the cache (%s): remove %s\n",
                t.name.c_str(), t.path.c_str(), selftests->dir.c_str());
        return 1;
      }
      files.push_back({"selftests/" + t.name, 0100755, std::move(bytes)});
      list += t.name + " " + std::to_string(t.timeout_s) + "\n";
      selftest_seconds += t.timeout_s * kSelftestTimeoutFactor;
    }
    files.push_back({"selftests/timeouts", 0100644, list});
    selftest_initrd = cache + "/lab-selftests-" + std::to_string(getpid()) + ".cpio";
    initrds.paths.push_back(selftest_initrd);
    if (auto written = WriteLabInitramfs(selftest_initrd, files); !written) {
      fprintf(stderr, "snare lab: initramfs: %s\n", written.error().c_str());
      return 1;
    }
  }
  bool kvm = o.kvm && KvmWorks(builds[variants[0]].bzimage, initrd);
  Progress(kvm     ? "KVM boots a lab kernel: using it"
           : o.kvm ? "KVM unavailable or hangs (20 s probe): using TCG"
                   : "KVM not tried (--no-kvm): using TCG");

  // A debug kernel's timings measure its debugging: it runs the checks (and the selftests),
  // with the smoke's trap count (it runs several times slower).
  const bool checks_only = smoke || o.config == kDebugConfig;
  const long traps = checks_only || o.quick ? 100000 : 1000000;
  std::string ab_args = checks_only ? "lab.mode=checks" : "lab.mode=all";
  ab_args += " lab.traps=" + std::to_string(traps);
  ab_args += " lab.maxdepth=32 lab.reps=" + std::string(o.quick ? "3" : "5");
  std::vector<results::BenchRun> runs;
  int failed_checks = 0;
  for (const auto& v : variants) {
    const std::string name = ConfiguredName(v, o.config);
    results::BenchRun run;
    results::DescribeMachine(&run);
    run.kernel_variant = name;
    run.command = command_line;
    run.quick = o.quick || smoke;
    // One boot of this variant: its checks (a splat on the console is one more) and rows.
    auto boot_once = [&](BootOptions boot, const std::string& what) -> std::optional<BootResult> {
      boot.bzimage = builds[v].bzimage;
      boot.variant = name;
      auto result = BootLabKernel(boot, Progress);
      if (!result) {
        EndProgress();
        fprintf(stderr, "snare lab: %s\n", result.error().c_str());
        return std::nullopt;
      }
      std::vector<LabCheck> checks = result->checks;
      checks.push_back(ConsoleCheck(what, result->splats));
      for (const auto& check : checks) {
        run.rows.push_back(CheckRow(check));
        if (!check.pass) {
          ++failed_checks;
          fprintf(stderr, "\nsnare lab: %s: check %s failed: %s\n", name.c_str(),
                  check.name.c_str(), check.detail.c_str());
        }
      }
      run.duration_s += result->seconds;
      return std::move(*result);
    };
    if (!selftests_only) {
      BootOptions boot;
      boot.initrd = initrd;
      boot.accel = kvm ? Accel::kKvm : Accel::kTcgIcount;
      boot.cpus = 1;
      boot.lab_args = ab_args;
      boot.timeout_s = o.timeout_s > 0 ? o.timeout_s : (smoke ? 900 : 3600);
      auto result = boot_once(boot, "bench");
      if (!result) return 1;
      run.kernel = result->kernel;
      run.cpu_model += " (qemu " + AccelName(boot.accel) + ")";
      run.cores = result->cpus;
      for (auto& row : result->rows) run.rows.push_back(std::move(row));
      if (!checks_only && !o.quick) {
        BootOptions multi = boot;
        multi.accel = kvm ? Accel::kKvm : Accel::kTcgMulti;
        multi.cpus = 2;
        multi.lab_args = "lab.mode=contention lab.contention=1";
        auto contention = boot_once(multi, "contention");
        if (!contention) return 1;
        for (auto row : contention->rows) {
          row.params["accel"] = AccelName(multi.accel);
          run.rows.push_back(std::move(row));
        }
      }
    }
    if (selftests) {
      // Two vCPUs: seccomp_bpf's TSYNC and notifier tests race threads for real.
      BootOptions boot;
      boot.initrd = selftest_initrd;
      boot.accel = kvm ? Accel::kKvm : Accel::kTcgMulti;
      boot.cpus = 2;
      boot.lab_args = "lab.mode=selftests lab.stscale=" + std::to_string(kSelftestTimeoutFactor);
      boot.timeout_s = o.timeout_s > 0 ? o.timeout_s : selftest_seconds + 300;
      auto result = boot_once(boot, "selftests");
      if (!result) return 1;
      if (run.kernel.empty()) {
        run.kernel = result->kernel;
        run.cpu_model += " (qemu " + AccelName(boot.accel) + ")";
        run.cores = result->cpus;
      }
      for (const auto& t : result->selftests) run.rows.push_back(SelftestRow(t));
      if (result->selftests.size() != selftests->tests.size()) {
        ++failed_checks;
        fprintf(stderr, "\nsnare lab: %s: %zu of %zu selftests reported\n", name.c_str(),
                result->selftests.size(), selftests->tests.size());
      }
    }
    runs.push_back(std::move(run));
  }
  EndProgress();

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
    return failed_checks ? 1 : 0;
  }
  if (!selftests_only && !checks_only) PrintSummary(runs);
  SelftestTable table = MakeSelftestTable(runs);
  fmt::print("{}", table.text);
  if (!table.regressions.empty()) fprintf(stderr, "\n%s", table.regressions.c_str());
  const bool regressions = !table.regressions.empty();
  if (store && runs.size() >= 2) {
    printf("\nstored in %s; compare with: snare report --compare=%lld,%lld\n",
           store->path().c_str(), static_cast<long long>(runs[0].id),
           static_cast<long long>(runs[1].id));
  }
  return failed_checks || regressions ? 1 : 0;
}

}  // namespace snare::lab
