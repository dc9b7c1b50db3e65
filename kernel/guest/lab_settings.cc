#include "kernel/guest/lab_settings.h"

#include <charconv>

namespace snare::lab {
namespace {

bool ParseLong(std::string_view text, long min, long max, long* out) {
  long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return false;
  }
  *out = value;
  return true;
}

bool IsPlainName(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.' || c == '+';
    if (!ok) return false;
  }
  return true;
}

void Apply(std::string_view key, std::string_view value, Settings* settings) {
  long number = 0;
  auto bad = [&](std::string_view what) {
    settings->errors.push_back(std::string(key) + "=" + std::string(value) + ": " +
                               std::string(what));
  };
  if (key == "variant") {
    if (IsPlainName(value)) {
      settings->variant = std::string(value);
    } else {
      bad("want 1-64 characters of [A-Za-z0-9._+-]");
    }
  } else if (key == "mode") {
    if (value == "checks") {
      settings->mode = Mode::kChecks;
    } else if (value == "bench") {
      settings->mode = Mode::kBench;
    } else if (value == "all") {
      settings->mode = Mode::kAll;
    } else if (value == "probe") {
      settings->mode = Mode::kProbe;
    } else if (value == "contention") {
      settings->mode = Mode::kContention;
      settings->contention = true;
    } else if (value == "selftests") {
      settings->mode = Mode::kSelftests;
    } else {
      bad("want checks, bench, all, probe, contention or selftests");
    }
  } else if (key == "traps") {
    if (ParseLong(value, 1, 1000000000, &number)) {
      settings->traps = number;
    } else {
      bad("want 1..1000000000");
    }
  } else if (key == "maxdepth") {
    // The kernel allows 32 nested user namespaces below the initial one.
    if (ParseLong(value, 0, 32, &number)) {
      settings->max_depth = static_cast<int>(number);
    } else {
      bad("want 0..32");
    }
  } else if (key == "reps") {
    if (ParseLong(value, 1, 1000, &number)) {
      settings->reps = static_cast<int>(number);
    } else {
      bad("want 1..1000");
    }
  } else if (key == "batch") {
    if (ParseLong(value, 1, 100000000, &number)) {
      settings->batch = number;
    } else {
      bad("want 1..100000000");
    }
  } else if (key == "contention") {
    if (value == "0" || value == "1") {
      settings->contention = value == "1";
    } else {
      bad("want 0 or 1");
    }
  } else if (key == "stscale") {
    if (ParseLong(value, 1, 100, &number)) {
      settings->selftest_timeout_factor = static_cast<int>(number);
    } else {
      bad("want 1..100");
    }
  } else if (key == "ctraps") {
    if (ParseLong(value, 1, 1000000000, &number)) {
      settings->contention_traps = number;
    } else {
      bad("want 1..1000000000");
    }
  } else {
    settings->errors.push_back("unknown setting '" + std::string(key) + "'");
  }
}

}  // namespace

std::string_view ModeName(Mode mode) {
  switch (mode) {
    case Mode::kChecks:
      return "checks";
    case Mode::kBench:
      return "bench";
    case Mode::kAll:
      return "all";
    case Mode::kProbe:
      return "probe";
    case Mode::kContention:
      return "contention";
    case Mode::kSelftests:
      return "selftests";
  }
  return "all";
}

Settings ParseKernelCommandLine(std::string_view cmdline) {
  Settings settings;
  constexpr std::string_view kPrefix = "lab.";
  size_t pos = 0;
  while (pos < cmdline.size()) {
    size_t start = cmdline.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) break;
    size_t end = cmdline.find_first_of(" \t\n", start);
    if (end == std::string_view::npos) end = cmdline.size();
    std::string_view word = cmdline.substr(start, end - start);
    pos = end;
    if (!word.starts_with(kPrefix)) continue;
    word.remove_prefix(kPrefix.size());
    size_t eq = word.find('=');
    if (eq == std::string_view::npos) {
      settings.errors.push_back("lab." + std::string(word) + ": missing '=VALUE'");
      continue;
    }
    Apply(word.substr(0, eq), word.substr(eq + 1), &settings);
  }
  return settings;
}

Settings ParseArguments(int argc, const char* const* argv) {
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    size_t eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string_view::npos) {
      settings.errors.push_back("bad argument '" + std::string(arg) + "' (want --KEY=VALUE)");
      continue;
    }
    Apply(arg.substr(2, eq - 2), arg.substr(eq + 1), &settings);
  }
  return settings;
}

}  // namespace snare::lab
