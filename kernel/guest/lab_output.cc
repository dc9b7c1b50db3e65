#include "kernel/guest/lab_output.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>

namespace snare::lab {
namespace {

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string JsonNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "null";
  char buf[64];
  snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

void WriteLine(std::string_view text) {
  std::string line(text);
  line += '\n';
  WriteAll(STDOUT_FILENO, line);
}

void WriteNote(std::string_view text) {
  std::string line = "snare-lab: ";
  line += text;
  line += '\n';
  WriteAll(STDERR_FILENO, line);
}

void EmitBegin(std::string_view fields_json) {
  WriteLine("SNARE-LAB-BEGIN " + std::string(fields_json));
}

void EmitCheck(std::string_view name, bool pass, std::string_view detail) {
  WriteLine("SNARE-LAB-CHECK {\"name\":" + JsonString(name) +
            ",\"pass\":" + (pass ? "true" : "false") + ",\"detail\":" + JsonString(detail) + "}");
}

void EmitResult(std::string_view suite, std::string_view name, std::string_view params_json,
                std::string_view unit, const std::vector<double>& samples, int decimals) {
  std::string line = "SNARE-LAB-RESULT {\"suite\":" + JsonString(suite) +
                     ",\"name\":" + JsonString(name) + ",\"params\":" + std::string(params_json) +
                     ",\"unit\":" + JsonString(unit) + ",\"samples\":[";
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i > 0) line += ',';
    line += JsonNumber(samples[i], decimals);
  }
  line += "]}";
  WriteLine(line);
}

void EmitEnd(int checks_passed, int checks_failed) {
  WriteLine("SNARE-LAB-END {\"checks_passed\":" + std::to_string(checks_passed) +
            ",\"checks_failed\":" + std::to_string(checks_failed) + "}");
}

}  // namespace snare::lab
