#include "sandbox/policy_file.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "sandbox/profiles.h"
#include "util/json_syntax.h"
#include "util/small_file.h"

namespace snare::sandbox {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxFileBytes = 1 << 20;

// The parse of one file: its name and directory, and errors that say where in it.
class Reader {
 public:
  Reader(std::string_view name, const std::string& base_dir) : name_(name), base_dir_(base_dir) {}

  std::expected<SandboxOptions, std::string> Read(const Json& top) {
    if (!top.is_object()) return Fail("the top level", "expected an object, got " + Type(top));
    for (const auto& [key, value] : top.items()) {
      std::expected<void, std::string> r;
      if (key == "profile") {
        r = Profile(value);
      } else if (key == "root") {
        r = Root(value);
      } else if (key == "mounts") {
        r = Mounts(value);
      } else if (key == "net") {
        r = Text(key, value, ParseNetwork, &out_.network);
      } else if (key == "uid") {
        r = Id(key, value, &out_.uid);
      } else if (key == "gid") {
        r = Id(key, value, &out_.gid);
      } else if (key == "hostname") {
        r = Text(key, value, ParseHostname, &out_.hostname);
      } else if (key == "rlimits") {
        r = Rlimits(value);
      } else if (key == "time_limit") {
        r = TimeLimit(value);
      } else if (key == "tmpfs_size") {
        r = Text(key,
                 value.is_number_unsigned() ? Json(std::to_string(value.get<uint64_t>())) : value,
                 ParseTmpfsSize, &out_.tmpfs_size);
      } else if (key == "memory" || key == "pids") {
        r = Text(key,
                 value.is_number_unsigned() ? Json(std::to_string(value.get<uint64_t>())) : value,
                 key == "memory" ? ParseMemoryLimit : ParsePidsLimit,
                 key == "memory" ? &out_.memory : &out_.pids);
      } else if (key == "syscalls") {
        r = Syscalls(value);
      } else {
        r = Fail(key,
                 "unknown key (known: profile, root, mounts, net, uid, gid, hostname, "
                 "rlimits, time_limit, tmpfs_size, memory, pids, syscalls)");
      }
      if (!r) return std::unexpected(r.error());
    }
    return out_;
  }

 private:
  static std::string Type(const Json& j) {
    if (j.is_number()) return "a number";
    if (j.is_object()) return "an object";
    if (j.is_array()) return "an array";
    if (j.is_boolean()) return "a boolean";
    if (j.is_null()) return "null";
    return "a string";
  }

  std::unexpected<std::string> Fail(const std::string& where, const std::string& what) const {
    return std::unexpected(name_ + ": " + where + ": " + what);
  }

  std::expected<std::string, std::string> String(const std::string& where, const Json& j) const {
    if (!j.is_string()) return Fail(where, "expected a string, got " + Type(j));
    return j.get<std::string>();
  }

  // A string checked by `parse` into *out.
  template <typename T, typename Parse>
  std::expected<void, std::string> Text(const std::string& where, const Json& j, Parse parse,
                                        std::optional<T>* out) {
    auto s = String(where, j);
    if (!s) return std::unexpected(s.error());
    auto v = parse(*s);
    if (!v) return Fail(where, v.error());
    *out = *v;
    return {};
  }

  std::expected<void, std::string> Profile(const Json& j) {
    auto s = String("profile", j);
    if (!s) return std::unexpected(s.error());
    if (auto spec = ProfileSpec(*s, "/"); !spec) return Fail("profile", spec.error());
    out_.profile = *s;
    return {};
  }

  std::expected<void, std::string> Root(const Json& j) {
    auto s = String("root", j);
    if (!s) return std::unexpected(s.error());
    auto root = ParseRoot(*s, base_dir_);
    if (!root) return Fail("root", root.error());
    out_.root = *root;
    return {};
  }

  std::expected<void, std::string> Id(const std::string& where, const Json& j,
                                      std::optional<uint32_t>* out) {
    if (!j.is_number()) return Fail(where, "expected a number, got " + Type(j));
    auto id = ParseId(j.is_number_unsigned() ? std::to_string(j.get<uint64_t>()) : j.dump());
    if (!id) return Fail(where, id.error());
    *out = *id;
    return {};
  }

  std::expected<void, std::string> TimeLimit(const Json& j) {
    if (!j.is_number()) return Fail("time_limit", "expected seconds as a number, got " + Type(j));
    auto s = CheckTimeLimit(j.get<double>());
    if (!s) return Fail("time_limit", s.error());
    out_.time_limit_s = *s;
    return {};
  }

  std::expected<void, std::string> Rlimits(const Json& j) {
    if (!j.is_object()) {
      return Fail("rlimits", "expected an object like {\"nofile\": 256}, got " + Type(j));
    }
    for (const auto& [name, value] : j.items()) {
      const std::string where = "rlimits." + name;
      std::expected<RlimitSpec, std::string> r;
      if (value.is_number_unsigned()) {
        r = MakeRlimit(name, std::to_string(value.get<uint64_t>()), "");
      } else if (value.is_string()) {
        r = ParseRlimit(name + "=" + value.get<std::string>());
      } else {
        return Fail(where, "expected a number or \"SOFT[:HARD]\", got " + Type(value));
      }
      if (!r) return Fail(where, r.error());
      out_.rlimits.push_back(*r);
    }
    return {};
  }

  std::expected<void, std::string> Mounts(const Json& j) {
    if (!j.is_array()) {
      return Fail("mounts", "expected an array like [{\"tmpfs\": \"/scratch\"}], got " + Type(j));
    }
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string where = "mounts[" + std::to_string(i) + "]";
      const Json& m = j[i];
      if (!m.is_object() || m.size() != 1) {
        return Fail(where, "expected an object with one key (ro-bind, bind, tmpfs, dev or proc)");
      }
      const std::string kind = m.begin().key();
      const Json& value = m.begin().value();
      auto r = Mount(where + "." + kind, kind, value);
      if (!r) return std::unexpected(r.error());
    }
    return {};
  }

  std::expected<void, std::string> Mount(const std::string& where, const std::string& kind,
                                         const Json& value) {
    using Kind = MountSpec::Kind;
    MountSpec m;
    std::string source, target;
    if (kind == "ro-bind" || kind == "bind") {
      m.kind = kind == "bind" ? Kind::kBind : Kind::kRoBind;
      if (value.is_string()) {
        source = target = value.get<std::string>();
      } else if (value.is_array() && value.size() == 2 && value[0].is_string() &&
                 value[1].is_string()) {
        source = value[0].get<std::string>();
        target = value[1].get<std::string>();
      } else {
        return Fail(where, "expected [\"SRC\", \"DST\"] or one path for both, got " + Type(value));
      }
      auto src = ParseMountSource(source, base_dir_);
      if (!src) return Fail(where, src.error());
      m.source = *src;
    } else if (kind == "tmpfs" || kind == "dev" || kind == "proc") {
      m.kind = kind == "tmpfs" ? Kind::kTmpfs : kind == "dev" ? Kind::kDev : Kind::kProc;
      auto s = String(where, value);
      if (!s) return std::unexpected(s.error());
      target = *s;
    } else {
      return Fail(where, "unknown mount kind (one of: ro-bind, bind, tmpfs, dev, proc)");
    }
    auto dst = ParseMountTarget(target);
    if (!dst) return Fail(where, dst.error());
    m.target = *dst;
    out_.mounts.push_back(std::move(m));
    return {};
  }

  std::expected<void, std::string> Syscalls(const Json& j) {
    if (!j.is_object()) {
      return Fail(
          "syscalls",
          "expected an object like {\"allow\": [...], \"deny\": [...], \"kill\": [...]}, got " +
              Type(j));
    }
    // "allow", then "deny", then "kill", whatever the file's order (the object is sorted by
    // key).
    for (const char* list : {"allow", "deny", "kill"}) {
      auto it = j.find(list);
      if (it == j.end()) continue;
      const std::string where = std::string("syscalls.") + list;
      if (!it->is_array()) {
        return Fail(where, "expected an array of syscall or @group names, got " + Type(*it));
      }
      const std::string_view kind = list;
      const policy::Action action = kind == "kill"    ? policy::Action::kKill
                                    : kind == "allow" ? policy::Action::kPassthrough
                                                      : policy::Action::kDeny;
      for (size_t i = 0; i < it->size(); ++i) {
        const std::string item = where + "[" + std::to_string(i) + "]";
        auto spec = String(item, (*it)[i]);
        if (!spec) return std::unexpected(spec.error());
        auto rule = policy::ParseSyscallRule(
            *spec, action,
            "a" + std::string(kind == "allow" ? "n " : " ") + std::string(kind) + " rule");
        if (!rule) return Fail(item, rule.error());
        out_.syscall_rules.push_back(std::move(*rule));
      }
    }
    for (const auto& [key, value] : j.items()) {
      if (key != "allow" && key != "deny" && key != "kill") {
        return Fail("syscalls." + key, "unknown key (known: allow, deny, kill)");
      }
    }
    return {};
  }

  std::string name_;
  std::string base_dir_;
  SandboxOptions out_;
};

}  // namespace

std::expected<SandboxOptions, std::string> ParsePolicyFile(std::string_view text,
                                                           std::string_view name,
                                                           const std::string& base_dir) {
  Json top = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (top.is_discarded()) {
    return std::unexpected(std::string(name) + ": not valid JSON: " + util::JsonSyntaxError(text));
  }
  return Reader(name, base_dir).Read(top);
}

std::expected<SandboxOptions, std::string> ReadPolicyFile(const std::string& path) {
  auto fail = [&](const std::string& why) {
    return std::unexpected("cannot read the policy file '" + path + "': " + why);
  };
  // Links are followed: a policy is only read, so a link the guest left in a directory it
  // writes gives it nothing that writing the file there would not (keep policies out of
  // such directories); Bazel's runfiles are links.
  auto text = util::ReadSmallFile(path, kMaxFileBytes);
  if (!text) {
    return fail(text.error() + (text.error().starts_with("larger")
                                    ? " (is it a policy file?)"
                                    : " (give the path of a JSON file)"));
  }
  char resolved[PATH_MAX];
  std::string dir = realpath(path.c_str(), resolved) ? resolved : path;
  dir = dir.substr(0, dir.rfind('/'));
  return ParsePolicyFile(*text, path, dir.empty() ? "/" : dir);
}

}  // namespace snare::sandbox
