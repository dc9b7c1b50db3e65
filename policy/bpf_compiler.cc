#include "policy/bpf_compiler.h"

#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>

namespace snare::policy {
namespace {

struct CtxDeleter {
  void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using Ctx = std::unique_ptr<void, CtxDeleter>;

std::string Failed(const std::string& what, int rc) {
  return "compiling the seccomp filter: " + what + ": " + strerror(-rc);
}

scmp_compare ScmpOp(CmpOp op) {
  switch (op) {
    case CmpOp::kEq:
      return SCMP_CMP_EQ;
    case CmpOp::kNe:
      return SCMP_CMP_NE;
    case CmpOp::kLt:
      return SCMP_CMP_LT;
    case CmpOp::kLe:
      return SCMP_CMP_LE;
    case CmpOp::kGt:
      return SCMP_CMP_GT;
    case CmpOp::kGe:
      return SCMP_CMP_GE;
    case CmpOp::kMaskedEq:
      return SCMP_CMP_MASKED_EQ;
  }
  return SCMP_CMP_EQ;
}

scmp_arg_cmp ScmpCheck(const ArgCheck& c) {
  if (c.op == CmpOp::kMaskedEq) return {c.arg, SCMP_CMP_MASKED_EQ, c.mask, c.value};
  return {c.arg, ScmpOp(c.op), c.value, 0};
}

// Dispositions compare by what they compile to (an errno only matters for deny).
uint32_t Key(Disposition d) { return SeccompAction(d); }

std::expected<std::vector<sock_filter>, std::string> Export(scmp_filter_ctx ctx) {
  int fd = memfd_create("snare-bpf", MFD_CLOEXEC);
  if (fd < 0) return std::unexpected(std::string("memfd_create: ") + strerror(errno));
  int rc = seccomp_export_bpf(ctx, fd);
  if (rc < 0) {
    close(fd);
    return std::unexpected(Failed("export", rc));
  }
  off_t size = lseek(fd, 0, SEEK_END);
  std::vector<sock_filter> program(static_cast<size_t>(size) / sizeof(sock_filter));
  ssize_t n = pread(fd, program.data(), program.size() * sizeof(sock_filter), 0);
  close(fd);
  if (n != static_cast<ssize_t>(program.size() * sizeof(sock_filter))) {
    return std::unexpected(std::string("reading back the exported filter failed"));
  }
  return program;
}

}  // namespace

uint32_t SeccompAction(Disposition d) {
  switch (d.action) {
    case Action::kPassthrough:
      return SECCOMP_RET_ALLOW;
    case Action::kBroker:
      return SECCOMP_RET_TRAP;
    case Action::kDeny:
      return SECCOMP_RET_ERRNO | (d.err & SECCOMP_RET_DATA);
    case Action::kKill:
      return SECCOMP_RET_KILL_PROCESS;
  }
  return SECCOMP_RET_KILL_PROCESS;
}

std::expected<std::vector<sock_filter>, std::string> CompileToBpf(const PolicyTable& table) {
  std::map<uint32_t, int> votes;
  for (int i = 0; i < abi::kSyscallCount; ++i)
    ++votes[Key(table.entries[abi::kSyscalls[i].nr].fallback)];
  uint32_t default_action = SECCOMP_RET_ALLOW;
  int best = -1;
  for (const auto& [action, count] : votes) {
    if (count > best) {
      best = count;
      default_action = action;
    }
  }

  Ctx ctx(seccomp_init(default_action));
  if (!ctx) return std::unexpected(std::string("seccomp_init failed"));
  int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc < 0) return std::unexpected(Failed("badarch", rc));

  for (int i = 0; i < abi::kSyscallCount; ++i) {
    const abi::SyscallInfo& info = abi::kSyscalls[i];
    const SyscallEntry& e = table.entries[info.nr];
    // Rules that give the fallback anyway change nothing.
    if (e.rule_count == 0 || Key(e.on_match) == Key(e.fallback)) {
      if (Key(e.fallback) == default_action) continue;
      rc = seccomp_rule_add_array(ctx.get(), SeccompAction(e.fallback), info.nr, 0, nullptr);
      if (rc < 0) return std::unexpected(Failed(info.name, rc));
      continue;
    }
    if (Key(e.fallback) != default_action) {
      return std::unexpected(std::string("compiling the seccomp filter: ") + info.name +
                             " has argument rules and a fallback (" +
                             ActionName(e.fallback.action) +
                             ") other than the filter's default; libseccomp cannot express it");
    }
    if (Key(e.on_match) == default_action) continue;
    for (uint32_t r = e.first_rule; r < e.first_rule + e.rule_count && r < table.rule_count; ++r) {
      const ArgRule& rule = table.rules[r];
      scmp_arg_cmp cmps[kMaxArgChecks];
      for (int c = 0; c < rule.count; ++c) cmps[c] = ScmpCheck(rule.checks[c]);
      rc = seccomp_rule_add_array(ctx.get(), SeccompAction(e.on_match), info.nr, rule.count, cmps);
      // EEXIST: the same rule twice, or one a broader rule already covers.
      if (rc < 0 && rc != -EEXIST) return std::unexpected(Failed(info.name, rc));
    }
  }
  return Export(ctx.get());
}

}  // namespace snare::policy
