// --time-limit: a watch that kills the guest when its wall-clock time runs out. The guest's
// init is killed (through a pidfd, so a recycled pid is never hit), and with it every guest
// process in its pid namespace.
#ifndef SNARE_SENTRY_TIME_LIMIT_H_
#define SNARE_SENTRY_TIME_LIMIT_H_

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace snare::sentry {

class TimeLimit {
 public:
  // Starts counting now; seconds <= 0 means no limit.
  TimeLimit(double seconds, pid_t init_pid);
  TimeLimit(const TimeLimit&) = delete;
  TimeLimit& operator=(const TimeLimit&) = delete;
  ~TimeLimit();

  // Ends the watch (call once the guest has exited); the guest is not killed after it.
  void Stop();
  // Whether the limit ran out and the guest was killed.
  bool expired();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopped_ = false;
  bool expired_ = false;
  int pidfd_ = -1;
  std::thread watch_;
};

}  // namespace snare::sentry

#endif  // SNARE_SENTRY_TIME_LIMIT_H_
