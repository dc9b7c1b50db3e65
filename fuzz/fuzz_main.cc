// main() of every fuzz target. Under the default (GCC) build it replays the seed corpus
// through LLVMFuzzerTestOneInput, so the corpus is a regression test. Under --config=fuzz
// (SNARE_LIBFUZZER) it hands over to libFuzzer with the test's flags, new inputs going to a
// scratch folder (the seed corpus is in the source tree) and crashes to the test's outputs.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#ifdef SNARE_LIBFUZZER
extern "C" int LLVMFuzzerRunDriver(int* argc, char*** argv,
                                   int (*callback)(const uint8_t* data, size_t size));
#endif

namespace {

#ifdef SNARE_LIBFUZZER
std::string EnvOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
#endif

// The files of dir, or dir itself when it is a file.
std::vector<std::string> Inputs(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return {dir};
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') out.push_back(dir + "/" + e->d_name);
  }
  closedir(d);
  return out;
}

int Replay(const std::vector<std::string>& paths) {
  size_t runs = 0;
  for (const std::string& path : paths) {
    for (const std::string& file : Inputs(path)) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "cannot read %s\n", file.c_str());
        return 1;
      }
      std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++runs;
    }
  }
  std::printf("replayed %zu inputs\n", runs);
  // A corpus that is not there would pass without testing anything.
  return runs ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> flags, corpus;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    (a.starts_with("-") ? flags : corpus).push_back(a);
  }
#ifdef SNARE_LIBFUZZER
  const std::string scratch = EnvOr("TEST_TMPDIR", "/tmp") + "/new-inputs";
  mkdir(scratch.c_str(), 0755);  // libFuzzer writes new inputs to its first folder
  std::vector<std::string> args = {argv[0]};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back("-artifact_prefix=" + EnvOr("TEST_UNDECLARED_OUTPUTS_DIR", ".") + "/");
  args.push_back("-print_final_stats=1");
  // Files rather than folders: libFuzzer runs just them (reproducing a crash).
  bool files = !corpus.empty();
  for (const std::string& c : corpus) {
    struct stat st;
    files &= stat(c.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }
  if (!files) args.push_back(scratch);
  args.insert(args.end(), corpus.begin(), corpus.end());
  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  ptrs.push_back(nullptr);
  int n = static_cast<int>(args.size());
  char** p = ptrs.data();
  return LLVMFuzzerRunDriver(&n, &p, LLVMFuzzerTestOneInput);
#else
  (void)flags;
  return Replay(corpus);
#endif
}
