#include "policy/seccomp_profile.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "abi/syscall_table.h"
#include "policy/policy_builder.h"
#include "util/json_syntax.h"
#include "util/small_file.h"

namespace snare::policy {
namespace {

using Json = nlohmann::json;

constexpr Disposition kAllowed = {Action::kPassthrough, 0};

// One parse: errors say where in the file they are.
class Reader {
 public:
  Reader(std::string_view name, const ProfileHost& host) : name_(name), host_(host) {}

  std::expected<SeccompProfile, std::string> Read(const Json& top) {
    if (!top.is_object()) return Fail("", "must be a JSON object");
    SeccompProfile profile;
    int default_errno = EPERM;
    if (auto it = top.find("defaultErrnoRet"); it != top.end()) {
      auto e = Errno("defaultErrnoRet", *it);
      if (!e) return std::unexpected(e.error());
      default_errno = *e;
    }
    default_errno_ = default_errno;
    auto it = top.find("defaultAction");
    if (it == top.end()) return Fail("defaultAction", "is missing");
    auto fallback = ActionOf("defaultAction", *it, nullptr);
    if (!fallback) return std::unexpected(fallback.error());
    profile.fallback = *fallback;
    if (auto a = Architectures(top); !a) return std::unexpected(a.error());
    auto calls = top.find("syscalls");
    if (calls == top.end() || calls->is_null()) return profile;
    if (!calls->is_array()) return Fail("syscalls", "must be an array");
    for (size_t i = 0; i < calls->size(); ++i) {
      auto r = Entry("syscalls[" + std::to_string(i) + "]", (*calls)[i], &profile);
      if (!r) return std::unexpected(r.error());
    }
    return profile;
  }

 private:
  std::unexpected<std::string> Fail(const std::string& where, const std::string& what) const {
    return std::unexpected(std::string(name_) + ": " + (where.empty() ? "" : where + ": ") + what);
  }

  std::expected<int, std::string> Errno(const std::string& where, const Json& j) const {
    if (!j.is_number_unsigned() || j.get<uint64_t>() < 1 || j.get<uint64_t>() > 4095) {
      return Fail(where, "must be an errno number from 1 to 4095");
    }
    return j.get<int>();
  }

  std::expected<Disposition, std::string> ActionOf(const std::string& where, const Json& j,
                                                   const Json* entry) const {
    if (!j.is_string()) return Fail(where, "must be a string such as \"SCMP_ACT_ERRNO\"");
    const std::string a = j.get<std::string>();
    if (a == "SCMP_ACT_ALLOW" || a == "SCMP_ACT_LOG") return kAllowed;
    if (a == "SCMP_ACT_KILL" || a == "SCMP_ACT_KILL_PROCESS" || a == "SCMP_ACT_KILL_THREAD" ||
        a == "SCMP_ACT_TRAP") {
      return Disposition{Action::kKill, 0};
    }
    if (a == "SCMP_ACT_TRACE") return Disposition{Action::kDeny, ENOSYS};
    if (a == "SCMP_ACT_ERRNO") {
      int err = default_errno_;
      if (entry) {
        if (auto it = entry->find("errnoRet"); it != entry->end()) {
          auto e = Errno(where.substr(0, where.rfind('.')) + ".errnoRet", *it);
          if (!e) return std::unexpected(e.error());
          err = *e;
        }
      }
      return Disposition{Action::kDeny, static_cast<uint16_t>(err)};
    }
    if (a == "SCMP_ACT_NOTIFY") {
      return Fail(where, "SCMP_ACT_NOTIFY (a seccomp agent) is not supported under snare");
    }
    return Fail(where, "unknown action '" + a + "'");
  }

  // The profile must cover x86-64 when it names architectures at all.
  std::expected<void, std::string> Architectures(const Json& top) const {
    std::vector<std::string> arches;
    if (auto it = top.find("architectures"); it != top.end() && !it->is_null()) {
      if (!it->is_array()) return Fail("architectures", "must be an array");
      for (const auto& a : *it) arches.push_back(a.is_string() ? a.get<std::string>() : "");
    }
    if (auto it = top.find("archMap"); it != top.end() && !it->is_null()) {
      if (!it->is_array()) return Fail("archMap", "must be an array");
      for (const auto& m : *it) {
        if (m.is_object() && m.contains("architecture") && m["architecture"].is_string()) {
          arches.push_back(m["architecture"].get<std::string>());
        }
      }
    }
    if (arches.empty()) return {};
    if (std::find(arches.begin(), arches.end(), "SCMP_ARCH_X86_64") != arches.end()) return {};
    return Fail("architectures", "does not include SCMP_ARCH_X86_64");
  }

  // Docker's includes/excludes: caps, arches, minKernel. An entry applies when everything it
  // includes holds and nothing it excludes does.
  std::expected<bool, std::string> Applies(const std::string& where, const Json& entry) const {
    for (const char* key : {"includes", "excludes"}) {
      auto it = entry.find(key);
      if (it == entry.end() || it->is_null()) continue;
      if (!it->is_object()) return Fail(where + "." + key, "must be an object");
      const bool include = key[0] == 'i';
      bool any = false, all = true, empty = true;
      if (auto c = it->find("caps"); c != it->end() && c->is_array() && !c->empty()) {
        empty = false;
        for (const auto& cap : *c) {
          const bool held =
              cap.is_string() && std::find(host_.caps.begin(), host_.caps.end(),
                                           cap.get<std::string>()) != host_.caps.end();
          any |= held;
          all &= held;
        }
      }
      if (auto a = it->find("arches"); a != it->end() && a->is_array() && !a->empty()) {
        empty = false;
        bool ours = false;
        for (const auto& arch : *a) {
          ours |= arch == "amd64" || arch == "x86_64" || arch == "SCMP_ARCH_X86_64";
        }
        any |= ours;
        all &= ours;
      }
      if (auto k = it->find("minKernel"); k != it->end() && k->is_string()) {
        empty = false;
        int major = 0, minor = 0;
        if (sscanf(k->get<std::string>().c_str(), "%d.%d", &major, &minor) < 1) {
          return Fail(where + "." + key + ".minKernel", "must be a version such as \"4.8\"");
        }
        const bool new_enough = host_.kernel_major > major ||
                                (host_.kernel_major == major && host_.kernel_minor >= minor);
        any |= new_enough;
        all &= new_enough;
      }
      if (empty) continue;
      if (include && !all) return false;
      if (!include && any) return false;
    }
    return true;
  }

  std::expected<ArgCheck, std::string> Arg(const std::string& where, const Json& a) const {
    if (!a.is_object()) return Fail(where, "must be an object");
    auto index = a.find("index");
    if (index == a.end() || !index->is_number_unsigned() || index->get<uint64_t>() > 5) {
      return Fail(where + ".index", "must be an argument index from 0 to 5");
    }
    auto number = [&](const char* key) -> std::expected<uint64_t, std::string> {
      auto it = a.find(key);
      if (it == a.end() || it->is_null()) return uint64_t{0};
      if (!it->is_number_unsigned()) return Fail(where + "." + key, "must be a number >= 0");
      return it->get<uint64_t>();
    };
    auto value = number("value");
    if (!value) return std::unexpected(value.error());
    auto two = number("valueTwo");
    if (!two) return std::unexpected(two.error());
    auto op = a.find("op");
    if (op == a.end() || !op->is_string()) return Fail(where + ".op", "must be a string");
    const uint8_t i = static_cast<uint8_t>(index->get<uint64_t>());
    const std::string o = op->get<std::string>();
    if (o == "SCMP_CMP_EQ") return ArgEq(i, *value);
    if (o == "SCMP_CMP_NE") return ArgNe(i, *value);
    if (o == "SCMP_CMP_LT") return ArgLt(i, *value);
    if (o == "SCMP_CMP_LE") return ArgLe(i, *value);
    if (o == "SCMP_CMP_GT") return ArgGt(i, *value);
    if (o == "SCMP_CMP_GE") return ArgGe(i, *value);
    if (o == "SCMP_CMP_MASKED_EQ") return ArgMaskedEq(i, *value, *two);
    return Fail(where + ".op", "unknown comparison '" + o + "'");
  }

  std::expected<void, std::string> Entry(const std::string& where, const Json& entry,
                                         SeccompProfile* profile) const {
    if (!entry.is_object()) return Fail(where, "must be an object");
    auto applies = Applies(where, entry);
    if (!applies) return std::unexpected(applies.error());
    auto action = entry.find("action");
    if (action == entry.end()) return Fail(where + ".action", "is missing");
    auto d = ActionOf(where + ".action", *action, &entry);
    if (!d) return std::unexpected(d.error());
    std::vector<ArgCheck> checks;
    if (auto args = entry.find("args"); args != entry.end() && !args->is_null()) {
      if (!args->is_array()) return Fail(where + ".args", "must be an array");
      for (size_t i = 0; i < args->size(); ++i) {
        auto c = Arg(where + ".args[" + std::to_string(i) + "]", (*args)[i]);
        if (!c) return std::unexpected(c.error());
        checks.push_back(*c);
      }
    }
    std::vector<std::string> names;
    if (auto n = entry.find("names"); n != entry.end() && n->is_array()) {
      for (const auto& name : *n) {
        if (!name.is_string()) return Fail(where + ".names", "must be an array of strings");
        names.push_back(name.get<std::string>());
      }
    } else if (auto n1 = entry.find("name"); n1 != entry.end() && n1->is_string()) {
      names.push_back(n1->get<std::string>());  // the older single-name form
    } else {
      return Fail(where + ".names", "is missing");
    }
    if (!*applies) return {};
    for (const auto& name : names) {
      const abi::SyscallInfo* info = abi::FindSyscallByName(name.c_str());
      if (!info) {
        profile->skipped_names.push_back(name);
        continue;
      }
      profile->rules.push_back({info->nr, checks, *d});
    }
    return {};
  }

  std::string_view name_;
  const ProfileHost& host_;
  int default_errno_ = EPERM;
};

int Severity(Disposition d) {
  switch (d.action) {
    case Action::kKill:
      return 2;
    case Action::kDeny:
      return 1;
    default:
      return 0;
  }
}

// What a call gets when snare's policy says `ours` and the profile says `theirs`.
Disposition Stricter(Disposition ours, Disposition theirs) {
  return Severity(theirs) > Severity(ours) ? theirs : ours;
}

struct Rule {
  std::vector<ArgCheck> all_of;  // empty: always
  Disposition d;
};

}  // namespace

std::expected<SeccompProfile, std::string> ParseSeccompProfile(std::string_view json,
                                                               std::string_view name,
                                                               const ProfileHost& host) {
  Json top = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (top.is_discarded()) {
    return std::unexpected(std::string(name) + ": not valid JSON: " + util::JsonSyntaxError(json));
  }
  return Reader(name, host).Read(top);
}

std::expected<SeccompProfile, std::string> ReadSeccompProfile(const std::string& path,
                                                              const ProfileHost& host) {
  auto text = util::ReadSmallFile(path, 1 << 20);
  if (!text) {
    return std::unexpected("cannot read the seccomp profile '" + path + "': " + text.error());
  }
  return ParseSeccompProfile(*text, path, host);
}

ProfileHost CurrentProfileHost(std::vector<std::string> caps) {
  ProfileHost host;
  host.caps = std::move(caps);
  utsname u;
  if (uname(&u) == 0) sscanf(u.release, "%d.%d", &host.kernel_major, &host.kernel_minor);
  return host;
}

namespace {

// Both policies' rules, combined; the builder holds copies, so `table` may be overwritten by
// what it builds.
PolicyBuilder Product(const PolicyTable& table, const SeccompProfile& profile) {
  PolicyBuilder b;
  for (int nr = 0; nr < abi::kSyscallLimit; ++nr) {
    if (!abi::FindSyscall(nr)) continue;
    // Both policies as ordered rules ending in an unconditional one; the first rule that
    // matches decides each. Their product, in order, decides as both together would.
    const SyscallEntry& e = table.entries[nr];
    std::vector<Rule> ours;
    for (uint32_t r = e.first_rule; r < e.first_rule + e.rule_count; ++r) {
      const ArgRule& rule = table.rules[r];
      ours.push_back({{rule.checks, rule.checks + rule.count}, rule.disposition});
    }
    ours.push_back({{}, e.fallback});
    std::vector<Rule> theirs;
    Disposition their_fallback = profile.fallback;
    for (const ProfileRule& p : profile.rules) {
      if (p.nr != static_cast<uint32_t>(nr)) continue;
      if (p.all_of.empty()) {
        their_fallback = p.d;  // a later unconditional entry replaces an earlier one
      } else {
        theirs.push_back({p.all_of, p.d});
      }
    }
    theirs.push_back({{}, their_fallback});
    for (const Rule& o : ours) {
      for (const Rule& t : theirs) {
        const Disposition d = Stricter(o.d, t.d);
        std::vector<ArgCheck> all_of = o.all_of;
        all_of.insert(all_of.end(), t.all_of.begin(), t.all_of.end());
        if (all_of.empty()) {
          b.Set(static_cast<uint32_t>(nr), d);
        } else {
          b.When(static_cast<uint32_t>(nr), all_of, d);
        }
        if (t.all_of.empty()) break;  // the rest of theirs can never be reached
      }
      if (o.all_of.empty()) break;
    }
  }
  return b;
}

}  // namespace

std::expected<PolicyTable, std::string> RestrictByProfile(const PolicyTable& table,
                                                          const SeccompProfile& profile) {
  return Product(table, profile).TryBuild();
}

std::expected<void, std::string> RestrictByProfileInPlace(const SeccompProfile& profile,
                                                          PolicyTable* table) {
  return Product(*table, profile).BuildInto(table);
}

}  // namespace snare::policy
