#include "kernel/lab/guest_boot.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "kernel/lab/command_stream.h"
#include "util/monotonic_clock.h"

namespace snare::lab {
namespace {

std::vector<std::string> QemuCommand(const BootOptions& o) {
  std::vector<std::string> argv = {
      "qemu-system-x86_64",  "-nographic", "-no-reboot", "-nic", "none", "-m", "512", "-smp",
      std::to_string(o.cpus)};
  switch (o.accel) {
    case Accel::kKvm:
      argv.insert(argv.end(), {"-accel", "kvm", "-cpu", "host"});
      break;
    case Accel::kTcgIcount:
      argv.insert(argv.end(), {"-accel", "tcg", "-icount", "shift=0", "-cpu", "max"});
      break;
    case Accel::kTcgMulti:
      argv.insert(argv.end(), {"-accel", "tcg,thread=multi", "-cpu", "max"});
      break;
  }
  argv.insert(argv.end(),
              {"-kernel", o.bzimage, "-initrd", o.initrd, "-append",
               // loglevel=5: warnings reach the console (quiet would hide lockdep's and
               // WARN's), informational lines do not.
               "console=ttyS0 loglevel=5 panic=-1 lab.variant=" + o.variant + " " + o.lab_args});
  return argv;
}

constexpr size_t kMaxSplatLines = 40;
constexpr int kSplatContext = 16;

SelftestOutcome ParseSelftest(const nlohmann::json& j) {
  SelftestOutcome s;
  s.name = j.value("name", "?");
  s.exit_status = j.value("exit", -1);
  s.signal = j.value("signal", 0);
  s.timed_out = j.value("timed_out", false);
  s.ok = j.value("ok", 0);
  s.not_ok = j.value("not_ok", 0);
  s.skip = j.value("skip", 0);
  s.seconds = j.value("seconds", 0.0);
  s.error = j.value("error", "");
  if (j.contains("failed") && j["failed"].is_array()) {
    for (const auto& f : j["failed"]) {
      if (f.is_string()) s.failed.push_back(f.get<std::string>());
    }
  }
  return s;
}

}  // namespace

SelftestVerdict VerdictOf(const SelftestOutcome& o) {
  if (!o.error.empty() || o.timed_out || o.signal != 0) return SelftestVerdict::kFail;
  if (o.exit_status == 0) return SelftestVerdict::kPass;
  if (o.exit_status == 4) return SelftestVerdict::kSkip;
  return SelftestVerdict::kFail;
}

std::string VerdictName(SelftestVerdict verdict) {
  switch (verdict) {
    case SelftestVerdict::kPass:
      return "pass";
    case SelftestVerdict::kSkip:
      return "skip";
    case SelftestVerdict::kFail:
      return "fail";
  }
  return "?";
}

bool IsSplatLine(const std::string& raw) {
  std::string_view line = raw;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  // printk's "[   12.345678] " time stamp, when the kernel has one.
  if (!line.empty() && line[0] == '[') {
    size_t close = line.find("] ");
    if (close != std::string_view::npos) line.remove_prefix(close + 2);
  }
  static constexpr std::string_view kStarts[] = {
      "BUG:",                      // KASAN, KFENCE, sleeping in atomic, bad page...
      "BUG ",                      // SLUB: "BUG kmalloc-64 (Not tainted): Redzone ..."
      "WARNING:",                  // WARN(), lockdep, suspicious RCU usage
      "------------[ cut here ]",  // WARN()'s first line
      "Oops",
      "Kernel panic",
      "general protection fault",
      "ODEBUG:",
      "UBSAN:",
      "INFO: possible",  // lockdep: recursive locking, irq lock inversion
      "INFO: task",      // hung tasks
      "list_add corruption",
      "list_del corruption",
      "kernel BUG at",
  };
  for (std::string_view start : kStarts) {
    if (line.substr(0, start.size()) == start) return true;
  }
  return false;
}

std::string AccelName(Accel accel) {
  switch (accel) {
    case Accel::kKvm:
      return "kvm";
    case Accel::kTcgIcount:
      return "tcg-icount";
    case Accel::kTcgMulti:
      return "tcg-multi";
  }
  return "?";
}

std::expected<BootResult, std::string> BootLabKernel(
    const BootOptions& o, const std::function<void(const std::string&)>& progress) {
  BootResult result;
  bool begun = false, ended = false;
  std::string parse_error;
  int splat_lines_left = 0;
  const double t0 = util::MonotonicSeconds();
  StreamResult r = RunStreaming(QemuCommand(o), "", o.timeout_s, [&](const std::string& line) {
    size_t at = line.find("SNARE-LAB-");
    if (at == std::string::npos) {
      // A splat's first line, and the lines after it (what, where, the call trace).
      if (IsSplatLine(line)) {
        splat_lines_left = kSplatContext;
        if (progress) progress(o.variant + ": kernel console: " + line);
      }
      if (splat_lines_left > 0 && result.splats.size() < kMaxSplatLines) {
        --splat_lines_left;
        result.splats.push_back(line);
      }
      return;
    }
    std::string rest = line.substr(at + 10);
    size_t space = rest.find(' ');
    std::string tag = rest.substr(0, space);
    auto j = nlohmann::json::parse(space == std::string::npos ? "{}" : rest.substr(space + 1),
                                   nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      parse_error = "unreadable line from the guest: " + line;
      return;
    }
    if (tag == "BEGIN") {
      begun = true;
      result.kernel = j.value("kernel", "");
      result.cpus = j.value("cpus", 0);
      if (progress) progress(o.variant + ": booted " + result.kernel);
    } else if (tag == "CHECK") {
      result.checks.push_back(
          {j.value("name", "?"), j.value("pass", false), j.value("detail", "")});
      if (progress) {
        progress(o.variant + ": check " + result.checks.back().name +
                 (result.checks.back().pass ? " passed" : " FAILED"));
      }
    } else if (tag == "RESULT") {
      results::BenchRow row;
      row.suite = j.value("suite", "");
      row.name = j.value("name", "");
      row.platform = "native";
      row.unit = j.value("unit", "");
      if (j.contains("params") && j["params"].is_object()) {
        for (auto& [k, v] : j["params"].items()) {
          row.params[k] = v.is_string() ? v.get<std::string>() : v.dump();
        }
      }
      if (j.contains("samples") && j["samples"].is_array()) {
        for (const auto& s : j["samples"]) {
          if (s.is_number()) row.samples.push_back(s.get<double>());
        }
      }
      if (row.samples.empty()) {
        parse_error = "a result without samples: " + line;
        return;
      }
      row.value = results::Median(row.samples);
      if (progress) progress(o.variant + ": " + row.suite + " " + row.name);
      result.rows.push_back(std::move(row));
    } else if (tag == "SELFTEST") {
      result.selftests.push_back(ParseSelftest(j));
      if (progress) {
        progress(o.variant + ": selftest " + result.selftests.back().name + " " +
                 VerdictName(VerdictOf(result.selftests.back())));
      }
    } else if (tag == "END") {
      ended = true;
    }
  });
  result.seconds = util::MonotonicSeconds() - t0;
  const std::string where = o.variant + " kernel under qemu (" + AccelName(o.accel) + ")";
  if (r.status < 0 && !begun)
    return std::unexpected(where + ", stage boot: cannot run qemu: " + r.tail);
  if (!parse_error.empty()) return std::unexpected(where + ", stage run: " + parse_error);
  if (!begun) {
    return std::unexpected(
        where + ", stage boot: the kernel did not start lab-init" +
        (r.timed_out ? " within " + std::to_string(static_cast<int>(o.timeout_s)) + " s" : "") +
        "; last console lines:\n" + r.tail);
  }
  if (!ended) {
    return std::unexpected(
        where + ", stage run: lab-init did not finish" +
        (r.timed_out ? " within " + std::to_string(static_cast<int>(o.timeout_s)) + " s (killed)"
                     : "") +
        "; last console lines:\n" + r.tail);
  }
  return result;
}

bool KvmWorks(const std::string& bzimage, const std::string& initrd) {
  if (access("/dev/kvm", R_OK | W_OK) != 0) return false;
  BootOptions o;
  o.bzimage = bzimage;
  o.initrd = initrd;
  o.variant = "probe";
  o.accel = Accel::kKvm;
  o.lab_args = "lab.mode=probe";
  o.timeout_s = 20;
  return BootLabKernel(o, nullptr).has_value();
}

}  // namespace snare::lab
