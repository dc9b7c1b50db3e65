// A classic-BPF interpreter for seccomp programs (after gVisor's pkg/bpf interpreter), so
// that filters are tested against made-up seccomp_data without a kernel. It accepts exactly
// the instructions the kernel's seccomp_check_filter() accepts and fails loudly on anything
// else.
#ifndef SNARE_POLICY_BPF_INTERPRETER_H_
#define SNARE_POLICY_BPF_INTERPRETER_H_

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cstdint>
#include <string>
#include <vector>

namespace snare::policy {

// The value of the program's RET, or an error that names the offending instruction (an
// opcode the kernel's checker rejects, a load outside seccomp_data, a jump out of the
// program, falling off its end).
struct BpfResult {
  bool ok = false;
  uint32_t action = 0;
  size_t steps = 0;  // instructions run, the RET included
  std::string error;
};

BpfResult RunBpf(const std::vector<sock_filter>& program, const seccomp_data& data);

// "ALLOW", "ERRNO", "TRAP", "KILL_PROCESS", ... for a seccomp return value's action.
std::string SeccompActionName(uint32_t action);

}  // namespace snare::policy

#endif  // SNARE_POLICY_BPF_INTERPRETER_H_
