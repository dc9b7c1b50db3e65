#include "results/machine_info.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

extern const char kSnareRevision[];

namespace snare::results {

void DescribeMachine(BenchRun* run) {
  time_t now = time(nullptr);
  tm utc;
  gmtime_r(&now, &utc);
  char when[32];
  strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &utc);
  run->started_at = when;
  utsname u;
  if (uname(&u) == 0) run->kernel = u.release;
  run->cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  run->revision = kSnareRevision;
  if (FILE* f = fopen("/proc/cpuinfo", "re")) {
    char line[512];
    while (fgets(line, sizeof(line), f)) {
      if (strncmp(line, "model name", 10) != 0) continue;
      const char* colon = strchr(line, ':');
      if (!colon) continue;
      std::string model = colon + 1;
      while (!model.empty() && (model.front() == ' ' || model.front() == '\t')) model.erase(0, 1);
      while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
      run->cpu_model = model;
      break;
    }
    fclose(f);
  }
}

}  // namespace snare::results
