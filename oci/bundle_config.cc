#include "oci/bundle_config.h"

namespace snare::oci {
namespace {

using Json = nlohmann::json;

std::expected<bool, std::string> Flag(const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no" || v.empty()) return false;
  return std::unexpected("annotation " + key + "=" + v + ": say true or false");
}

}  // namespace

std::expected<SnareOptions, std::string> ReadSnareOptions(const Json& config) {
  SnareOptions o;
  auto it = config.find("annotations");
  if (it == config.end() || !it->is_object()) return o;
  for (const auto& [key, value] : it->items()) {
    if (key.rfind("dev.snare.", 0) != 0 || key == kWrappedAnnotation) continue;
    if (!value.is_string()) return std::unexpected("annotation " + key + ": must be a string");
    const std::string v = value.get<std::string>();
    if (key == "dev.snare.platform") {
      if (v != "systrap" && v != "inproc") {
        return std::unexpected("annotation " + key + "=" + v + ": choose systrap or inproc");
      }
      o.platform = v;
    } else if (key == "dev.snare.profile") {
      if (v != "container" && v != "sandbox" && v != "trace") {
        return std::unexpected("annotation " + key + "=" + v +
                               ": choose container, sandbox or trace");
      }
      o.profile = v;
    } else if (key == "dev.snare.trace" || key == "dev.snare.patch") {
      auto f = Flag(key, v);
      if (!f) return std::unexpected(f.error());
      if (key == "dev.snare.trace") {
        o.trace = *f;
      } else {
        o.patch = *f;
      }
    } else if (key == "dev.snare.stats") {
      if (v == "table" || v == "json") {
        o.stats = v;
      } else {
        auto f = Flag(key, v);
        if (!f)
          return std::unexpected("annotation " + key + "=" + v + ": say json, table or false");
        o.stats = *f ? "json" : "";
      }
    } else if (key == "dev.snare.output-dir") {
      if (v.empty() || v[0] != '/') {
        return std::unexpected("annotation " + key + "=" + v + ": must be an absolute path");
      }
      o.output_dir = v;
    } else {
      return std::unexpected("unknown annotation " + key +
                             " (snare reads dev.snare.platform, .profile, .trace, .stats, .patch "
                             "and .output-dir)");
    }
  }
  if (o.patch.value_or(false) && o.platform != "systrap") {
    return std::unexpected("annotation dev.snare.patch=true needs dev.snare.platform=systrap");
  }
  return o;
}

std::string OutputDirectory(const SnareOptions& options, const std::string& bundle,
                            const std::string& id) {
  return options.output_dir.empty() ? bundle + "/snare" : options.output_dir + "/" + id;
}

std::string PolicyDirectory(const std::string& bundle) { return bundle + "/snare-policy"; }

Json SnareCommand(const SnareOptions& options, bool seccomp, const std::string& exec_tag,
                  const Json& args) {
  const std::string out = std::string(kOutputInContainer) + "/" +
                          (exec_tag.empty() ? std::string() : "exec-" + exec_tag + "-");
  Json inner = Json::array(
      {kSnareInContainer, "run", "--profile=" + options.profile, "--platform=" + options.platform});
  if (options.patch) inner.push_back(*options.patch ? "--patch" : "--no-patch");
  if (options.trace) inner.push_back("--trace-file=" + out + "trace.txt");
  if (!options.stats.empty()) {
    inner.push_back("--stats=" + options.stats);
    inner.push_back("--stats-file=" + out + (options.stats == "json" ? "stats.json" : "stats.txt"));
  }
  if (seccomp) {
    inner.push_back("--seccomp-profile=" + std::string(kPolicyInContainer) + "/seccomp.json");
  }
  inner.push_back("--");
  for (const auto& a : args) inner.push_back(a);
  return inner;
}

std::expected<RewrittenConfig, std::string> RewriteConfig(const Json& config,
                                                          const SnareOptions& options,
                                                          const std::string& snare_binary,
                                                          const std::string& output,
                                                          const std::string& policy) {
  RewrittenConfig out;
  out.config = config;
  Json& c = out.config;
  auto process = c.find("process");
  if (process == c.end() || !process->is_object()) {
    return std::unexpected("config.json has no \"process\" object (is it an OCI runtime config?)");
  }
  auto args = process->find("args");
  if (args == process->end() || !args->is_array() || args->empty()) {
    return std::unexpected("config.json: process.args is missing or empty");
  }
  for (const auto& a : *args) {
    if (!a.is_string()) return std::unexpected("config.json: process.args must hold strings");
  }
  const std::string out_dir = kOutputInContainer;
  // runc would install the profile on snare's own process; snare enforces it on the guest.
  if (auto linux = c.find("linux"); linux != c.end() && linux->is_object()) {
    if (auto seccomp = linux->find("seccomp"); seccomp != linux->end() && !seccomp->is_null()) {
      out.seccomp = *seccomp;
      linux->erase("seccomp");
    }
  }
  (*process)["args"] = SnareCommand(options, !out.seccomp.is_null(), "", *args);

  if (!c.contains("mounts") || !c["mounts"].is_array()) c["mounts"] = Json::array();
  c["mounts"].push_back({{"destination", kSnareInContainer},
                         {"type", "bind"},
                         {"source", snare_binary},
                         {"options", {"bind", "ro", "nosuid", "nodev"}}});
  c["mounts"].push_back({{"destination", out_dir},
                         {"type", "bind"},
                         {"source", output},
                         {"options", {"bind", "rw", "nosuid", "nodev", "noexec"}}});
  if (!out.seccomp.is_null()) {
    c["mounts"].push_back({{"destination", kPolicyInContainer},
                           {"type", "bind"},
                           {"source", policy},
                           {"options", {"bind", "ro", "nosuid", "nodev", "noexec"}}});
  }
  if (!c.contains("annotations") || !c["annotations"].is_object())
    c["annotations"] = Json::object();
  c["annotations"][kWrappedAnnotation] = "true";
  return out;
}

}  // namespace snare::oci
