#include "bench/program_fixtures.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/subprocess.h"

namespace snare::bench {
namespace {

std::unexpected<std::string> Failed(const std::string& what) {
  return std::unexpected(what + ": " + strerror(errno));
}

std::expected<void, std::string> MakeDir(const std::string& dir) {
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return Failed("mkdir " + dir);
  return {};
}

std::expected<void, std::string> WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Failed("writing " + path);
  return {};
}

}  // namespace

std::expected<void, std::string> MakeFileTree(const std::string& dir, int count) {
  if (auto r = MakeDir(dir); !r) return r;
  const std::string content(1000, 'x');
  for (int i = 0; i < count; ++i) {
    const std::string sub = fmt::format("{}/d{:03}", dir, i / 100);
    if (i % 100 == 0) {
      if (auto r = MakeDir(sub); !r) return r;
    }
    if (auto r = WriteText(fmt::format("{}/f{:05}.txt", sub, i), content); !r) return r;
  }
  return {};
}

std::expected<void, std::string> MakeGitRepository(const std::string& dir, int count) {
  if (auto r = MakeFileTree(dir, count); !r) return r;
  const std::vector<std::string> git = {
      "git", "-C", dir, "-c", "user.name=snare bench", "-c", "user.email=bench@snare.invalid"};
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "fixture"}}) {
    std::vector<std::string> argv = git;
    argv.insert(argv.end(), args.begin(), args.end());
    util::SubprocessOptions options;
    options.timeout = std::chrono::seconds(300);
    util::SubprocessResult r = util::RunSubprocess(argv, options);
    if (r.status != 0) {
      return std::unexpected("git " + args[0] + " in " + dir + " failed: " + r.Describe());
    }
  }
  return {};
}

std::expected<void, std::string> WriteSqlInserts(const std::string& path, int rows) {
  std::string sql =
      "PRAGMA synchronous=OFF;\nDROP TABLE IF EXISTS t;\n"
      "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, value REAL);\n";
  for (int i = 0; i < rows; ++i) {
    sql += fmt::format("INSERT INTO t(name, value) VALUES('row {}', {});\n", i, i * 0.5);
  }
  sql += "SELECT count(*) FROM t;\n";
  return WriteText(path, sql);
}

std::expected<void, std::string> WriteCSource(const std::string& path, int lines) {
  // 3 lines of includes, 6 per function, 1 per call in main, 5 for main's frame.
  const int functions = std::max(1, (lines - 8) / 7);
  std::string c = "#include <stdio.h>\n#include <string.h>\n\n";
  for (int n = 0; n < functions; ++n) {
    c += fmt::format(
        "static int f{0}(const char* s, int k) {{\n"
        "  int h = {0};\n"
        "  for (size_t i = 0; i < strlen(s); ++i) h = h * 31 + s[i] + k;\n"
        "  return h ^ (h >> 7);\n"
        "}}\n\n",
        n);
  }
  c += "int main(int argc, char** argv) {\n  int h = 0;\n";
  for (int n = 0; n < functions; ++n) c += fmt::format("  h += f{}(argv[0], argc);\n", n);
  c += "  printf(\"%d\\n\", h);\n  return 0;\n}\n";
  return WriteText(path, c);
}

}  // namespace snare::bench
