#include "policy/bpf_interpreter.h"

#include <cstddef>
#include <cstdio>
#include <cstring>

namespace snare::policy {

BpfResult RunBpf(const std::vector<sock_filter>& program, const seccomp_data& data) {
  BpfResult result;
  auto fail = [&](size_t pc, const char* what) {
    char buf[160];
    std::snprintf(
        buf, sizeof(buf), "pc %zu: %s (code 0x%04x, jt %u, jf %u, k 0x%08x)", pc, what,
        pc < program.size() ? program[pc].code : 0, pc < program.size() ? program[pc].jt : 0,
        pc < program.size() ? program[pc].jf : 0, pc < program.size() ? program[pc].k : 0);
    result.error = buf;
    return result;
  };
  if (program.empty() || program.size() > BPF_MAXINSNS) return fail(0, "bad program length");
  uint32_t a = 0;
  uint32_t x = 0;
  uint32_t mem[BPF_MEMWORDS] = {};
  bool mem_valid[BPF_MEMWORDS] = {};
  size_t pc = 0;
  // Each instruction runs at most once: every jump goes forward.
  for (size_t steps = 0; steps <= program.size(); ++steps) {
    if (pc >= program.size()) return fail(pc, "fell off the end of the program");
    const sock_filter& in = program[pc];
    const uint16_t code = in.code;
    const uint32_t k = in.k;
    switch (BPF_CLASS(code)) {
      case BPF_LD:
      case BPF_LDX: {
        uint32_t value;
        if (code == (BPF_LD | BPF_W | BPF_ABS)) {
          if (k % 4 != 0 || k + 4 > sizeof(seccomp_data))
            return fail(pc, "load outside seccomp_data");
          std::memcpy(&value, reinterpret_cast<const char*>(&data) + k, 4);
        } else if (code == (BPF_LD | BPF_W | BPF_LEN) || code == (BPF_LDX | BPF_W | BPF_LEN)) {
          value = sizeof(seccomp_data);
        } else if (code == (BPF_LD | BPF_IMM) || code == (BPF_LDX | BPF_IMM)) {
          value = k;
        } else if (code == (BPF_LD | BPF_MEM) || code == (BPF_LDX | BPF_MEM)) {
          if (k >= BPF_MEMWORDS) return fail(pc, "scratch index out of range");
          if (!mem_valid[k]) return fail(pc, "load from unwritten scratch memory");
          value = mem[k];
        } else {
          return fail(pc, "load the seccomp checker rejects");
        }
        (BPF_CLASS(code) == BPF_LD ? a : x) = value;
        ++pc;
        break;
      }
      case BPF_ST:
      case BPF_STX:
        if (code != BPF_ST && code != BPF_STX) return fail(pc, "unknown store");
        if (k >= BPF_MEMWORDS) return fail(pc, "scratch index out of range");
        mem[k] = BPF_CLASS(code) == BPF_ST ? a : x;
        mem_valid[k] = true;
        ++pc;
        break;
      case BPF_ALU: {
        const uint32_t operand = BPF_SRC(code) == BPF_X ? x : k;
        switch (BPF_OP(code)) {
          case BPF_ADD:
            a += operand;
            break;
          case BPF_SUB:
            a -= operand;
            break;
          case BPF_MUL:
            a *= operand;
            break;
          case BPF_DIV:
            if (operand == 0) return fail(pc, "division by zero");
            a /= operand;
            break;
          case BPF_MOD:
            if (operand == 0) return fail(pc, "modulo by zero");
            a %= operand;
            break;
          case BPF_AND:
            a &= operand;
            break;
          case BPF_OR:
            a |= operand;
            break;
          case BPF_XOR:
            a ^= operand;
            break;
          case BPF_LSH:
            if (operand >= 32) return fail(pc, "shift out of range");
            a <<= operand;
            break;
          case BPF_RSH:
            if (operand >= 32) return fail(pc, "shift out of range");
            a >>= operand;
            break;
          case BPF_NEG:
            if (BPF_SRC(code) != BPF_K) return fail(pc, "unknown ALU instruction");
            a = 0 - a;
            break;
          default:
            return fail(pc, "unknown ALU instruction");
        }
        ++pc;
        break;
      }
      case BPF_JMP: {
        size_t next;
        if (BPF_OP(code) == BPF_JA) {
          if (code != (BPF_JMP | BPF_JA)) return fail(pc, "unknown jump");
          next = pc + 1 + k;
        } else {
          const uint32_t operand = BPF_SRC(code) == BPF_X ? x : k;
          bool taken;
          switch (BPF_OP(code)) {
            case BPF_JEQ:
              taken = a == operand;
              break;
            case BPF_JGT:
              taken = a > operand;
              break;
            case BPF_JGE:
              taken = a >= operand;
              break;
            case BPF_JSET:
              taken = (a & operand) != 0;
              break;
            default:
              return fail(pc, "unknown jump");
          }
          next = pc + 1 + (taken ? in.jt : in.jf);
        }
        if (next >= program.size()) return fail(pc, "jump past the end of the program");
        pc = next;
        break;
      }
      case BPF_RET:
        if (code == (BPF_RET | BPF_K)) {
          result.action = k;
        } else if (code == (BPF_RET | BPF_A)) {
          result.action = a;
        } else {
          return fail(pc, "unknown return");
        }
        result.ok = true;
        result.steps = steps + 1;
        return result;
      case BPF_MISC:
        if (code == (BPF_MISC | BPF_TAX)) {
          x = a;
        } else if (code == (BPF_MISC | BPF_TXA)) {
          a = x;
        } else {
          return fail(pc, "unknown misc instruction");
        }
        ++pc;
        break;
      default:
        return fail(pc, "unknown instruction class");
    }
  }
  return fail(pc, "program did not terminate");
}

std::string SeccompActionName(uint32_t action) {
  switch (action & SECCOMP_RET_ACTION_FULL) {
    case SECCOMP_RET_KILL_PROCESS:
      return "KILL_PROCESS";
    case SECCOMP_RET_KILL_THREAD:
      return "KILL_THREAD";
    case SECCOMP_RET_TRAP:
      return "TRAP";
    case SECCOMP_RET_ERRNO:
      return "ERRNO";
    case SECCOMP_RET_USER_NOTIF:
      return "USER_NOTIF";
    case SECCOMP_RET_TRACE:
      return "TRACE";
    case SECCOMP_RET_LOG:
      return "LOG";
    case SECCOMP_RET_ALLOW:
      return "ALLOW";
    default:
      return "unknown";
  }
}

}  // namespace snare::policy
