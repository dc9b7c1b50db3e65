// The lab's serial-console protocol: one SNARE-LAB-* line per event, each written with a
// single write(2) to standard output so lines from different processes never interleave.
//   SNARE-LAB-BEGIN  {"variant":...,"kernel":...,"cpus":N,...}
//   SNARE-LAB-CHECK  {"name":...,"pass":true|false,"detail":...}
//   SNARE-LAB-RESULT {"suite":...,"name":...,"params":{...},"unit":...,"samples":[...]}
//   SNARE-LAB-END    {"checks_passed":N,"checks_failed":M}
#ifndef SNARE_KERNEL_GUEST_LAB_OUTPUT_H_
#define SNARE_KERNEL_GUEST_LAB_OUTPUT_H_

#include <string>
#include <string_view>
#include <vector>

namespace snare::lab {

// A JSON string literal, quotes included.
std::string JsonString(std::string_view text);

// A JSON number with the given digits after the point (non-finite values become null).
std::string JsonNumber(double value, int decimals);

// Writes text plus a newline to fd 1 in one write(2) (retrying short writes and EINTR).
void WriteLine(std::string_view text);

// Free text for people reading the console; not part of the protocol (goes to fd 2).
void WriteNote(std::string_view text);

void EmitBegin(std::string_view fields_json);
void EmitCheck(std::string_view name, bool pass, std::string_view detail);
// params_json is an object literal, e.g. {"depth":3}.
void EmitResult(std::string_view suite, std::string_view name, std::string_view params_json,
                std::string_view unit, const std::vector<double>& samples, int decimals);
void EmitEnd(int checks_passed, int checks_failed);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_LAB_OUTPUT_H_
