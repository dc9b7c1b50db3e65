// Benchmark workloads from the seed threads (/work/shared/seeds/): each is a scalability
// story in the kernel's signal or process-management paths that a syscall interposer must
// carry correctly and that `snare bench` measures natively and under `snare run`.
//
// Contract shared by all three:
//  - Callable from any process: the tasks are forked children (and, for the threads
//    variant of signal1, threads of one forked child), so the caller's signal handlers,
//    signal mask and CPU affinity are left as they were. Nothing is printed.
//  - The tasks start together (a barrier), each warms up for `warmup_seconds`, then counts
//    operations for `seconds` by its own CLOCK_MONOTONIC and reports its count and the
//    window it actually measured (at least `seconds`; it stops after the batch that
//    crosses the deadline).
//  - Blocks for about warmup_seconds + seconds. Do not run two workloads at once from
//    threads of one process: each one's children would inherit the other's barrier pipe.
//  - Errors (bad arguments, a failed fork, a task that failed or died) are returned as a
//    message naming the workload, the task and the call that failed.
#ifndef SNARE_BENCH_WORKLOADS_SEED_WORKLOADS_H_
#define SNARE_BENCH_WORKLOADS_SEED_WORKLOADS_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::bench {

struct WorkloadResult {
  std::vector<double> per_task_ops_per_s;  // one rate per task, in task order
  double seconds = 0;                      // the longest measurement window of any task
};

// Arguments (checked; anything else is an error): tasks in 1..1024 (will-it-scale's
// MAX_TASKS), seconds in (0, 86400], warmup_seconds in [0, 86400] (0: no warmup).
// will-it-scale warms up for 5 s; 0.2 s keeps `snare bench` quick.
inline constexpr double kDefaultWarmupSeconds = 0.2;

// will-it-scale tests/signal1.c (seed 000: the ucount charge on every queued signal).
// Each task installs an empty SIGUSR1 handler and loops raise(SIGUSR1); with `threads`,
// the tasks are threads of one process. Tasks are pinned one per CPU, round-robin over the
// CPUs the caller may run on. glibc 2.36's raise() is gettid + getpid + tgkill (plus the
// handler's rt_sigreturn) in both variants.
std::expected<WorkloadResult, std::string> RunSignal1(
    int tasks, bool threads, double seconds, double warmup_seconds = kDefaultWarmupSeconds);

// Barret Rhoden's tasklist_lock microbenchmark (seed 003). Each task (a process, not
// pinned, as in the seed) loops: fork a child that spins on
// setpriority(getpriority()) + getrlimit(RLIMIT_CPU) until killed; usleep(1000);
// kill(child, SIGTERM); waitpid(child). One op = one fork/sleep/kill/wait cycle, so a task
// does at most ~1000 ops/s by construction.
std::expected<WorkloadResult, std::string> RunTasklistBench(
    int tasks, double seconds, double warmup_seconds = kDefaultWarmupSeconds);

// Mateusz Guzik's thread create/join benchmark (seed 004; will-it-scale
// tests/threadspawn1.c in process mode). Each task is a process, pinned one per CPU,
// that loops pthread_create of a thread that returns at once + pthread_join.
// One op = one create+join pair.
std::expected<WorkloadResult, std::string> RunThreadCreateJoin(
    int tasks, double seconds, double warmup_seconds = kDefaultWarmupSeconds);

}  // namespace snare::bench

#endif  // SNARE_BENCH_WORKLOADS_SEED_WORKLOADS_H_
