#include "policy/policy_builder.h"

#include <algorithm>
#include <cerrno>

#include "abi/syscall_table.h"

namespace snare::policy {

PolicyBuilder::PolicyBuilder() {
  for (Disposition& d : fallback_) d = {Action::kPassthrough, 0};
}

uint16_t PolicyBuilder::Errno(int err) {
  return err > 0 && err <= 4095 ? static_cast<uint16_t>(err) : uint16_t{0};
}

void PolicyBuilder::Error(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

bool PolicyBuilder::CheckNr(uint32_t nr) {
  if (nr < static_cast<uint32_t>(abi::kSyscallLimit) && abi::FindSyscall(nr)) return true;
  Error("syscall number " + std::to_string(nr) + " is not an x86-64 syscall");
  return false;
}

PolicyBuilder& PolicyBuilder::Set(uint32_t nr, Disposition d) {
  if (!CheckNr(nr)) return *this;
  if (d.action == Action::kDeny && d.err == 0) {
    Error(std::string("deny of ") + abi::SyscallName(nr) + " needs an errno from 1 to 4095");
    return *this;
  }
  fallback_[nr] = d;
  return *this;
}

PolicyBuilder& PolicyBuilder::SetByName(std::string_view name, Disposition d) {
  const abi::SyscallInfo* info = abi::FindSyscallByName(std::string(name).c_str());
  if (!info) {
    Error("unknown syscall '" + std::string(name) + "' (use the kernel's name, e.g. openat)");
    return *this;
  }
  return Set(info->nr, d);
}

PolicyBuilder& PolicyBuilder::SetAll(Disposition d) {
  for (int i = 0; i < abi::kSyscallCount; ++i) Set(abi::kSyscalls[i].nr, d);
  return *this;
}

bool PolicyBuilder::CheckRule(uint32_t nr, const std::vector<ArgCheck>& all_of, Disposition d) {
  if (!CheckNr(nr)) return false;
  const char* name = abi::SyscallName(nr);
  if (all_of.empty() || all_of.size() > kMaxArgChecks) {
    Error(std::string("a rule for ") + name + " needs 1 to " + std::to_string(kMaxArgChecks) +
          " argument checks");
    return false;
  }
  for (const ArgCheck& c : all_of) {
    if (c.arg > 5) {
      Error(std::string("a rule for ") + name + " checks argument " + std::to_string(c.arg) +
            " (syscalls have arguments 0 to 5)");
      return false;
    }
  }
  if (d.action == Action::kDeny && d.err == 0) {
    Error(std::string("a deny rule for ") + name + " needs an errno from 1 to 4095");
    return false;
  }
  return true;
}

PolicyBuilder& PolicyBuilder::When(uint32_t nr, std::initializer_list<ArgCheck> all_of,
                                   Disposition d) {
  return When(nr, std::vector<ArgCheck>(all_of), d);
}

PolicyBuilder& PolicyBuilder::When(uint32_t nr, const std::vector<ArgCheck>& all_of,
                                   Disposition d) {
  if (CheckRule(nr, all_of, d)) rules_.push_back({nr, all_of, d});
  return *this;
}

PolicyBuilder& PolicyBuilder::WhenFirst(uint32_t nr, std::initializer_list<ArgCheck> all_of,
                                        Disposition d) {
  return WhenFirst(nr, std::vector<ArgCheck>(all_of), d);
}

// TryBuild keeps the relative order of one syscall's rules: the front is before them all.
PolicyBuilder& PolicyBuilder::WhenFirst(uint32_t nr, const std::vector<ArgCheck>& all_of,
                                        Disposition d) {
  if (CheckRule(nr, all_of, d)) rules_.insert(rules_.begin(), {nr, all_of, d});
  return *this;
}

std::expected<PolicyTable, std::string> PolicyBuilder::TryBuild() const {
  // One named result, returned on every path: built in the caller's object, not copied.
  std::expected<PolicyTable, std::string> table(std::in_place);
  if (auto built = BuildInto(&*table); !built) table = std::unexpected(built.error());
  return table;
}

std::expected<void, std::string> PolicyBuilder::BuildInto(PolicyTable* into) const {
  if (!error_.empty()) return std::unexpected("policy: " + error_);
  if (rules_.size() > static_cast<size_t>(kMaxArgRules)) {
    return std::unexpected("policy: " + std::to_string(rules_.size()) +
                           " argument rules, more than the " + std::to_string(kMaxArgRules) +
                           " a policy holds");
  }
  PolicyTable& table = *into;
  table.rule_count = 0;
  for (int nr = 0; nr < abi::kSyscallLimit; ++nr) {
    SyscallEntry& e = table.entries[nr];
    e = SyscallEntry{};
    e.fallback = abi::FindSyscall(static_cast<uint64_t>(nr)) ? fallback_[nr]
                                                             : Disposition{Action::kDeny, ENOSYS};
  }
  // Rules are stored grouped by syscall, each group in the order it is tried.
  std::vector<const Rule*> sorted;
  for (const Rule& r : rules_) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Rule* a, const Rule* b) { return a->nr < b->nr; });
  for (const Rule* r : sorted) {
    SyscallEntry& e = table.entries[r->nr];
    if (e.rule_count == 0) e.first_rule = static_cast<uint16_t>(table.rule_count);
    ++e.rule_count;
    ArgRule& out = table.rules[table.rule_count++];
    out.disposition = r->d;
    out.count = static_cast<uint8_t>(r->checks.size());
    std::fill(std::copy(r->checks.begin(), r->checks.end(), out.checks), out.checks + kMaxArgChecks,
              ArgCheck{});
  }
  return {};
}

}  // namespace snare::policy
