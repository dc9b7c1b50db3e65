#include "oci/runtime_main.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <expected>
#include <nlohmann/json.hpp>

#include "oci/bundle_config.h"
#include "oci/runtime_command_line.h"
#include "util/atomic_file.h"
#include "util/json_syntax.h"
#include "util/path_search.h"
#include "util/small_file.h"
#include "util/subprocess.h"

namespace snare::oci {
namespace {

using Json = nlohmann::json;

constexpr const char* kVersion = "0.9.0";

std::string Runc() {
  if (const char* env = getenv("SNARE_RUNC"); env && *env) return env;
  const char* path = getenv("PATH");
  std::string search = std::string(path && *path ? path : "") + ":/usr/sbin:/usr/bin:/sbin:/bin";
  if (auto found = util::FindExecutable("runc", search)) return *found;
  return "";
}

// On stderr, and in runc's --log as the engine reads it (logrus's JSON with --log-format
// json), so that podman shows why the container did not start.
int Fail(const RuntimeCommandLine& cl, const std::string& message) {
  fprintf(stderr, "snare-runtime: %s\n", message.c_str());
  if (!cl.log.empty()) {
    if (FILE* f = fopen(cl.log.c_str(), "a")) {
      char when[64];
      time_t now = time(nullptr);
      strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
      if (cl.log_format == "json") {
        fprintf(f, "%s\n",
                Json({{"level", "error"}, {"msg", "snare-runtime: " + message}, {"time", when}})
                    .dump()
                    .c_str());
      } else {
        fprintf(f, "time=\"%s\" level=error msg=\"snare-runtime: %s\"\n", when, message.c_str());
      }
      fclose(f);
    }
  }
  return 1;
}

// `path` and its missing parents (0700), then `path` itself given `mode`.
std::expected<void, std::string> MakeDirectories(const std::string& path, mode_t mode) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      return std::unexpected("cannot make the directory '" + prefix + "': " + strerror(errno));
    }
  }
  if (chmod(path.c_str(), mode) != 0) {
    return std::unexpected("cannot set the mode of '" + path + "': " + strerror(errno));
  }
  return {};
}

std::string Absolute(const std::string& path) {
  char resolved[4096];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// A JSON object from a file (a bundle's config.json, an exec's process.json).
std::expected<Json, std::string> ReadJsonObject(const std::string& path) {
  auto text = util::ReadSmallFile(path, 16 << 20);
  if (!text) return std::unexpected("cannot read " + path + ": " + text.error());
  Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return std::unexpected(path + ": not a JSON object: " + util::JsonSyntaxError(*text));
  }
  return j;
}

// Whether snare-runtime already rewrote this config.
bool Wrapped(const Json& config) {
  return config.contains("annotations") && config["annotations"].is_object() &&
         config["annotations"].value(kWrappedAnnotation, "") == "true";
}

// create and run: the bundle's config rewritten in place, before runc reads it.
std::expected<void, std::string> PrepareBundle(const RuntimeCommandLine& cl,
                                               const std::string& self) {
  const std::string bundle = Absolute(cl.bundle);
  const std::string path = bundle + "/config.json";
  auto read = ReadJsonObject(path);
  if (!read) return std::unexpected(read.error());
  const Json& config = *read;
  if (Wrapped(config)) return {};
  auto options = ReadSnareOptions(config);
  if (!options) return std::unexpected(path + ": " + options.error());
  const std::string output = OutputDirectory(*options, bundle, cl.id);
  // Whichever user the container's processes run as (USER, --user, exec -u) writes its
  // outputs; the sticky bit keeps one user's files from another's renames and deletes. The
  // bind is the directory itself: its 0700 parents do not stand in the way.
  if (auto made = MakeDirectories(output, 01777); !made) return std::unexpected(made.error());
  const std::string policy = PolicyDirectory(bundle);
  auto rewritten = RewriteConfig(config, *options, self, output, policy);
  if (!rewritten) return std::unexpected(path + ": " + rewritten.error());
  if (!rewritten->seccomp.is_null()) {
    // Readable by every user of the container, writable by none of them (bound read-only).
    if (auto made = MakeDirectories(policy, 0755); !made) return std::unexpected(made.error());
    const std::string file = policy + "/seccomp.json";
    auto written = util::WriteFileAtomically(file, rewritten->seccomp.dump(1));
    if (!written) return std::unexpected(written.error());
    if (chmod(file.c_str(), 0644) != 0) {
      return std::unexpected("cannot set the mode of '" + file + "': " + strerror(errno));
    }
  }
  return util::WriteFileAtomically(path, rewritten->config.dump(1));
}

// exec: the process it starts runs under snare as well, with the container's options (from
// the bundle runc reports). Returns runc's command line, rewritten where the command is on it.
std::expected<std::vector<std::string>, std::string> PrepareExec(
    const RuntimeCommandLine& cl, const std::string& runc, const std::vector<std::string>& argv) {
  std::vector<std::string> state = {runc};
  state.insert(state.end(), cl.global.begin(), cl.global.end());
  state.insert(state.end(), {"state", cl.id});
  util::SubprocessResult r = util::RunSubprocess(state, {});
  Json j = Json::parse(r.stdout_data, nullptr, /*allow_exceptions=*/false);
  if (r.status != 0 || !j.is_object() || !j.contains("bundle") || !j["bundle"].is_string()) {
    return std::unexpected("exec: runc state " + cl.id + " failed: " + r.stderr_data);
  }
  const std::string bundle = j["bundle"].get<std::string>();
  auto config = ReadJsonObject(bundle + "/config.json");
  if (!config) return std::unexpected("exec: " + config.error());
  if (!Wrapped(*config)) return argv;  // not a container snare-runtime created
  auto options = ReadSnareOptions(*config);
  if (!options) return std::unexpected(options.error());
  struct stat st;
  const bool seccomp = stat((PolicyDirectory(bundle) + "/seccomp.json").c_str(), &st) == 0;
  const std::string tag = std::to_string(getpid());
  if (!cl.process_file.empty()) {
    auto read = ReadJsonObject(cl.process_file);
    if (!read) return std::unexpected("exec: " + read.error());
    Json process = std::move(*read);
    if (!process.contains("args") || !process["args"].is_array()) {
      return std::unexpected("exec: " + cl.process_file + " has no \"args\" array");
    }
    process["args"] = SnareCommand(*options, seccomp, tag, process["args"]);
    if (auto w = util::WriteFileAtomically(cl.process_file, process.dump(1)); !w) {
      return std::unexpected(w.error());
    }
    return argv;
  }
  if (cl.exec_command < 0) return argv;
  std::vector<std::string> out = cl.global;
  out.push_back("exec");
  out.insert(out.end(), cl.args.begin(), cl.args.begin() + cl.exec_command);
  const Json command = SnareCommand(
      *options, seccomp, tag,
      Json(std::vector<std::string>(cl.args.begin() + cl.exec_command, cl.args.end())));
  for (const auto& a : command) out.push_back(a.get<std::string>());
  return out;
}

[[noreturn]] void ExecRunc(const std::string& runc, const std::vector<std::string>& argv) {
  std::vector<char*> args;
  args.push_back(const_cast<char*>(runc.c_str()));
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(runc.c_str(), args.data());
  fprintf(stderr, "snare-runtime: cannot run %s: %s\n", runc.c_str(), strerror(errno));
  _exit(127);
}

}  // namespace

int RuntimeMain(const std::vector<std::string>& argv, const std::string& self) {
  auto cl = ParseRuntimeCommandLine(argv);
  if (!cl) {
    fprintf(stderr, "snare-runtime: %s\n", cl.error().c_str());
    return 2;
  }
  const std::string runc = Runc();
  if (cl->version && cl->command.empty()) {
    printf("snare-runtime version %s\nspec: 1.0.2-dev\n", kVersion);
    printf("runc: %s\n", runc.empty() ? "not found (set SNARE_RUNC)" : runc.c_str());
    return 0;
  }
  if (cl->command.empty()) {
    fprintf(cl->help ? stdout : stderr,
            "usage: snare-runtime [GLOBAL OPTIONS] COMMAND [OPTIONS] ID\n"
            "An OCI runtime: runc does the container, snare interposes on its process.\n"
            "Commands are runc's (create, start, state, kill, delete, run, features, ...);\n"
            "create and run first rewrite the bundle's config.json (annotations dev.snare.*).\n");
    return cl->help ? 0 : 2;
  }
  if (runc.empty()) return Fail(*cl, "runc not found on PATH (install runc, or set SNARE_RUNC)");
  if (cl->command == "create" || cl->command == "run") {
    if (auto prepared = PrepareBundle(*cl, self); !prepared) return Fail(*cl, prepared.error());
  }
  if (cl->command == "exec") {
    auto rewritten = PrepareExec(*cl, runc, argv);
    if (!rewritten) return Fail(*cl, rewritten.error());
    ExecRunc(runc, *rewritten);
  }
  ExecRunc(runc, argv);
}

}  // namespace snare::oci
