#include "policy/syscall_rule.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "abi/errno_name.h"
#include "abi/syscall_group.h"
#include "abi/syscall_table.h"

namespace snare::policy {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The known name closest to `name` ("@file-open" for "@fileopen"), or "" when none is close
// enough to be a likely typo.
std::string Closest(std::string_view name) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
  auto consider = [&](const std::string& candidate) {
    const size_t d = EditDistance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  };
  for (int i = 0; i < abi::kSyscallCount; ++i) consider(abi::kSyscalls[i].name);
  for (int i = 0; i < abi::kSyscallGroupCount; ++i) {
    consider(std::string("@") + abi::kSyscallGroups[i].name);
  }
  return best;
}

std::string UnknownName(const std::string& name) {
  std::string message;
  if (name.empty()) {
    message = "a syscall rule needs a syscall or @group name";
  } else if (name[0] == '@') {
    message = "unknown syscall group '" + name + "'";
    if (abi::FindSyscallByName(name.c_str() + 1)) {
      return message + " (" + name.substr(1) +
             " is a syscall: write it without '@'; `snare run --list-groups` lists the groups)";
    }
  } else {
    message = "unknown syscall '" + name + "'";
  }
  const std::string closest = name.empty() ? "" : Closest(name);
  return message + " (" + (closest.empty() ? "" : "did you mean " + closest + "? ") +
         "use the kernel's name, e.g. openat, or a group; `snare run --list-groups` lists them)";
}

std::expected<uint16_t, std::string> ParseErrno(const std::string& spec, const std::string& name,
                                                const std::string& err_name) {
  if (err_name.empty()) {
    return std::unexpected("missing errno after ':' in '" + spec + "' (e.g. " + name + ":EPERM)");
  }
  int err = abi::ErrnoFromName(err_name.c_str());
  if (err > 0) return static_cast<uint16_t>(err);
  char* end;
  errno = 0;
  const long v = strtol(err_name.c_str(), &end, 10);
  if (*end || errno || !isdigit(static_cast<unsigned char>(err_name[0])) || v <= 0 || v > 4095) {
    return std::unexpected("unknown errno '" + err_name + "' in '" + spec +
                           "' (use a name like EPERM or EACCES, or a number from 1 to 4095)");
  }
  return static_cast<uint16_t>(v);
}

// Calls the stub must rewrite or emulate on the way (signal masks and handlers, clone and
// exec, exits, GS): through the notification path the kernel would run them unchanged.
constexpr const char* kNotNotifiable[] = {
    "rt_sigaction", "rt_sigprocmask", "sigaltstack", "rt_sigsuspend", "ppoll",
    "epoll_pwait",  "epoll_pwait2",   "pselect6",    "close_range",   "clone",
    "clone3",       "fork",           "vfork",       "execve",        "execveat",
    "rt_sigreturn", "exit",           "exit_group",  "arch_prctl",
};

}  // namespace

std::expected<SyscallRule, std::string> ParseSyscallRule(std::string_view spec, Action action,
                                                         std::string_view source) {
  SyscallRule rule;
  rule.spec = std::string(spec);
  std::string name = rule.spec, err_name;
  const size_t colon = rule.spec.find(':');
  if (colon != std::string::npos) {
    name = rule.spec.substr(0, colon);
    err_name = rule.spec.substr(colon + 1);
  }
  if (action == Action::kKill || action == Action::kNotify || action == Action::kPassthrough) {
    if (colon != std::string::npos) {
      return std::unexpected(std::string(source) + " takes no errno: '" + rule.spec + "'");
    }
    rule.disposition = {action, 0};
  } else {
    rule.disposition = {Action::kDeny, EPERM};
    if (colon != std::string::npos) {
      auto err = ParseErrno(rule.spec, name, err_name);
      if (!err) return std::unexpected(err.error());
      rule.disposition.err = *err;
    }
  }

  const abi::SyscallGroup* group = nullptr;
  if (!name.empty() && name[0] == '@') {
    group = abi::FindSyscallGroup(name.c_str() + 1);
    if (!group) return std::unexpected(UnknownName(name));
  } else {
    const abi::SyscallInfo* info = abi::FindSyscallByName(name.c_str());
    if (!info) return std::unexpected(UnknownName(name));
    group = abi::GroupOfSyscall(info->nr);
    if (!group) rule.nrs.push_back(info->nr);
  }
  if (group) {
    for (int i = 0; i < group->count; ++i) {
      rule.nrs.push_back(abi::FindSyscallByName(group->members[i])->nr);
    }
  }
  std::sort(rule.nrs.begin(), rule.nrs.end());
  if (action == Action::kNotify) {
    for (const char* name : kNotNotifiable) {
      const abi::SyscallInfo* info = abi::FindSyscallByName(name);
      if (info && std::binary_search(rule.nrs.begin(), rule.nrs.end(), info->nr)) {
        return std::unexpected(std::string(source) + "=" + rule.spec + ": " + name +
                               " cannot take the notification path (the stub must rewrite it: "
                               "signal masks, clone, exec, exit); trace it with --trace instead");
      }
    }
  }
  return rule;
}

void ApplySyscallRule(const SyscallRule& rule, PolicyBuilder* builder) {
  for (uint32_t nr : rule.nrs) builder->Set(nr, rule.disposition);
}

std::string SyscallGroupListing() {
  size_t width = 0;
  for (int i = 0; i < abi::kSyscallGroupCount; ++i) {
    width = std::max(width, std::string_view(abi::kSyscallGroups[i].name).size() + 1);
  }
  std::string out;
  for (int i = 0; i < abi::kSyscallGroupCount; ++i) {
    const abi::SyscallGroup& g = abi::kSyscallGroups[i];
    std::string name = std::string("@") + g.name;
    name.resize(width + 2, ' ');
    out += name + g.summary + ":";
    for (int m = 0; m < g.count; ++m) out += std::string(" ") + g.members[m];
    out += "\n";
  }
  return out;
}

}  // namespace snare::policy
