// Mateusz Guzik's thread create/join benchmark (seed 004: "further damage-control lack of
// clone scalability"; pidmap_lock, then pidfs and cgroup locks; ~465k ops/s with 20
// processes unpatched). The seed quotes will-it-scale's tests/threadspawn1.c, run in
// will-it-scale's process mode ("spawning and killing threads in separate processes in
// parallel"), one task per core:
//
//   static void *worker(void *arg) { return (NULL); }
//   while (1) {
//     error = pthread_create(&thread, NULL, worker, NULL); assert(error == 0);
//     error = pthread_join(thread, NULL); assert(error == 0);
//     (*iterations)++;
//   }

#include <pthread.h>

#include <memory>
#include <vector>

#include "bench/workloads/run_workload.h"
#include "bench/workloads/seed_workloads.h"
#include "bench/workloads/task_group.h"

namespace snare::bench {
namespace {

void* ReturnAtOnce(void*) { return nullptr; }

class ThreadCreateJoinBody : public TaskBody {
 public:
  std::optional<TaskFailure> Run(uint64_t count) override {
    for (uint64_t i = 0; i < count; ++i) {
      pthread_t thread;
      if (int error = pthread_create(&thread, nullptr, ReturnAtOnce, nullptr)) {
        return TaskFailure{"pthread_create", error};
      }
      if (int error = pthread_join(thread, nullptr)) return TaskFailure{"pthread_join", error};
    }
    return std::nullopt;
  }
};

}  // namespace

std::expected<WorkloadResult, std::string> RunThreadCreateJoin(int tasks, double seconds,
                                                               double warmup_seconds) {
  return RunWorkload<ThreadCreateJoinBody>({"thread-create-join", TaskKind::kProcess,
                                            /*pin=*/true, 1},
                                           tasks, seconds, warmup_seconds);
}

}  // namespace snare::bench
