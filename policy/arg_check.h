// One comparison of a syscall argument with a constant, as seccomp BPF can make it: the
// full 64-bit argument, unsigned (bpf_compiler.cc compares the two 32-bit halves).
//
// Freestanding: the stub includes it.
#ifndef SNARE_POLICY_ARG_CHECK_H_
#define SNARE_POLICY_ARG_CHECK_H_

#include <stdint.h>

namespace snare::policy {

enum class CmpOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kMaskedEq };

struct ArgCheck {
  uint8_t arg = 0;  // 0..5
  CmpOp op = CmpOp::kEq;
  uint64_t mask = 0;  // kMaskedEq: (arg & mask) == value
  uint64_t value = 0;

  constexpr bool Matches(const uint64_t args[6]) const {
    const uint64_t a = args[arg < 6 ? arg : 0];
    switch (op) {
      case CmpOp::kEq:
        return a == value;
      case CmpOp::kNe:
        return a != value;
      case CmpOp::kLt:
        return a < value;
      case CmpOp::kLe:
        return a <= value;
      case CmpOp::kGt:
        return a > value;
      case CmpOp::kGe:
        return a >= value;
      case CmpOp::kMaskedEq:
        return (a & mask) == value;
    }
    return false;
  }
};

// Shorthands: ArgEq(0, 5) is "arg0 == 5".
constexpr ArgCheck ArgEq(uint8_t arg, uint64_t v) { return {arg, CmpOp::kEq, 0, v}; }
constexpr ArgCheck ArgNe(uint8_t arg, uint64_t v) { return {arg, CmpOp::kNe, 0, v}; }
constexpr ArgCheck ArgLt(uint8_t arg, uint64_t v) { return {arg, CmpOp::kLt, 0, v}; }
constexpr ArgCheck ArgLe(uint8_t arg, uint64_t v) { return {arg, CmpOp::kLe, 0, v}; }
constexpr ArgCheck ArgGt(uint8_t arg, uint64_t v) { return {arg, CmpOp::kGt, 0, v}; }
constexpr ArgCheck ArgGe(uint8_t arg, uint64_t v) { return {arg, CmpOp::kGe, 0, v}; }
constexpr ArgCheck ArgMaskedEq(uint8_t arg, uint64_t mask, uint64_t v) {
  return {arg, CmpOp::kMaskedEq, mask, v};
}
// The low 32 bits equal v: how the kernel reads an int argument such as an fd.
constexpr ArgCheck ArgInt32Eq(uint8_t arg, uint32_t v) { return ArgMaskedEq(arg, 0xffffffffu, v); }

}  // namespace snare::policy

#endif  // SNARE_POLICY_ARG_CHECK_H_
