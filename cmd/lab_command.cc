#include "cmd/lab_command.h"

namespace snare::cmd {
namespace {

constexpr const char* kUsage =
    "snare lab build [--variants=LIST] [--config=NAME] [--cache=DIR] [--kernel-dir=DIR]\n"
    "       snare lab run   [--variants=LIST] [--config=NAME] [--quick] [--db=PATH]\n"
    "                       [--cache=DIR] [--kernel-dir=DIR] [--timeout=SECONDS] [--no-kvm]\n"
    "       snare lab selftests [--variants=LIST] [--config=NAME] [--db=PATH] [--cache=DIR]\n"
    "                       [--kernel-dir=DIR] [--timeout=SECONDS] [--no-kvm]\n"
    "       snare lab smoke [--variants=LIST] [--config=NAME] [--cache=DIR] [--kernel-dir=DIR]\n"
    "                       [--no-kvm]";

}  // namespace

std::expected<lab::LabOptions, ParseExit> ParseLabArgs(const std::vector<std::string>& args) {
  CLI::App app(
      "Builds the stock and patched 6.12 kernels, boots each under qemu, runs the checks and "
      "benchmarks inside and stores the results. Actions: build; run (the A/B comparison, "
      "then the kernel's own selftests); selftests (those alone); smoke (the patches apply, "
      "the kernels build and boot, the checks pass: for CI).",
      "snare lab");
  SetUpApp(app, kUsage);
  lab::LabOptions o;
  std::string variants;
  app.add_option("ACTION", o.action, "build, run, selftests or smoke");
  app.add_option("--variants", variants,
                 "comma-separated: stock and the folders of kernel/patches/6.12/ (default: all)")
      ->option_text("LIST");
  app.add_option("--config", o.config,
                 "lab (tinyconfig + kernel/config/lab.config), or NAME of another "
                 "kernel/config/NAME.config merged after it: debug, slub-tiny")
      ->option_text("NAME");
  app.add_flag("--quick", o.quick, "fewer traps and repetitions");
  app.add_option("--db", o.db, "the results database (run)")->option_text("PATH");
  app.add_option("--cache", o.cache, "where built kernels are kept (default ~/.cache/snare/lab)")
      ->option_text("DIR");
  app.add_option("--kernel-dir", o.kernel_dir, "the checkout's kernel/ folder")->option_text("DIR");
  app.add_option("--timeout", o.timeout_s, "seconds each boot may take")->option_text("SECONDS");
  bool no_kvm = false;
  app.add_flag("--no-kvm", no_kvm, "do not try KVM (TCG only)");
  if (auto parsed = ParseArgs(app, args); !parsed) return std::unexpected(parsed.error());

  auto fail = [&](const std::string& m) { return std::unexpected(UsageError(app, m)); };
  if (!app.remaining().empty()) return fail("unknown argument '" + app.remaining()[0] + "'");
  if (o.action.empty()) return fail("missing action (build, run, selftests, smoke)");
  if (o.action != "build" && o.action != "run" && o.action != "smoke" && o.action != "selftests") {
    return fail("unknown action '" + o.action + "'");
  }
  if (app.count("--timeout") && !(o.timeout_s > 0)) return fail("--timeout wants seconds");
  for (const char* flag : {"--db", "--cache", "--kernel-dir", "--variants", "--config"}) {
    if (app.count(flag) && app[flag]->as<std::string>().empty()) {
      return fail(std::string(flag) + " needs a value");
    }
  }
  o.kvm = !no_kvm;
  o.variants = SplitList(variants);
  return o;
}

int LabCommand(const std::vector<std::string>& args, const std::string& command_line) {
  auto options = ParseLabArgs(args);
  if (!options) return Report(options.error());
  return lab::RunLab(*options, command_line);
}

}  // namespace snare::cmd
