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

std::expected<void, std::string> MakeDirectories(const std::string& path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      return std::unexpected("cannot make the directory '" + prefix + "': " + strerror(errno));
    }
  }
  return {};
}

std::string Absolute(const std::string& path) {
  char resolved[4096];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// create and run: the bundle's config rewritten in place, before runc reads it.
std::expected<void, std::string> PrepareBundle(const RuntimeCommandLine& cl,
                                               const std::string& self) {
  const std::string bundle = Absolute(cl.bundle);
  const std::string path = bundle + "/config.json";
  auto text = util::ReadSmallFile(path, 16 << 20);
  if (!text) return std::unexpected("cannot read " + path + ": " + text.error());
  Json config = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded() || !config.is_object()) {
    return std::unexpected(path + ": not a JSON object: " + util::JsonSyntaxError(*text));
  }
  if (config.contains("annotations") && config["annotations"].is_object() &&
      config["annotations"].value(kWrappedAnnotation, "") == "true") {
    return {};
  }
  auto options = ReadSnareOptions(config);
  if (!options) return std::unexpected(path + ": " + options.error());
  const std::string output = OutputDirectory(*options, bundle, cl.id);
  if (auto made = MakeDirectories(output); !made) return std::unexpected(made.error());
  auto rewritten = RewriteConfig(config, *options, self, output);
  if (!rewritten) return std::unexpected(path + ": " + rewritten.error());
  if (!rewritten->seccomp.is_null()) {
    auto written = util::WriteFileAtomically(output + "/seccomp.json", rewritten->seccomp.dump(1));
    if (!written) return std::unexpected(written.error());
  }
  return util::WriteFileAtomically(path, rewritten->config.dump(1));
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
  ExecRunc(runc, argv);
}

}  // namespace snare::oci
