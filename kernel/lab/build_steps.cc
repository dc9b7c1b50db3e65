#include "kernel/lab/build_steps.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kernel/lab/lab_paths.h"
#include "util/path_search.h"
#include "util/subprocess.h"

namespace snare::lab {

CacheKey& CacheKey::Add(const std::string& data) {
  for (unsigned char c : data) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ull;
  }
  return *this;
}

std::string CacheKey::Hex() const {
  char key[32];
  snprintf(key, sizeof(key), "%016llx", static_cast<unsigned long long>(hash_));
  return key;
}

std::string SourceVersion() {
  std::string version;
  util::SubprocessResult dpkg =
      util::RunSubprocess({"dpkg-query", "-W", "-f=${Version}", "linux-source-6.12"});
  if (dpkg.status == 0) version = dpkg.stdout_data;
  if (version.empty()) {
    struct stat st;
    if (stat(kSourceTarball, &st) == 0) version = "size-" + std::to_string(st.st_size);
  }
  return version;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

bool MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      std::string part = path.substr(0, i);
      if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
  }
  return true;
}

void RemoveTree(const std::string& path) {
  RunStreaming({"rm", "-rf", "--one-file-system", path}, "", 600, nullptr);
}

StreamResult UnpackSource(const std::string& dest, const std::vector<std::string>& exclude) {
  std::vector<std::string> argv = {"tar", "-xJf", kSourceTarball,
                                   "-C",  dest,   "--strip-components=1"};
  for (const auto& dir : exclude) argv.push_back("--exclude=linux-source-6.12/" + dir);
  return RunStreaming(argv, "", 900, nullptr);
}

std::vector<std::string> MakeCommand(const std::string& cache_dir, const std::string& src) {
  const char* path = getenv("PATH");
  if (!util::FindExecutable("ccache", path ? path : util::kDefaultPath)) return {"make"};
  return {"env", "CCACHE_DIR=" + cache_dir + "/ccache", "CCACHE_BASEDIR=" + src, "make",
          "CC=ccache gcc"};
}

}  // namespace snare::lab
