// The kernel's count of queued signals charged to our user (the A of "SigQ:\tA/B" in
// /proc/self/status; B is RLIMIT_SIGPENDING). The count is per user and user namespace,
// so other processes of the same user move it too.
#ifndef SNARE_KERNEL_GUEST_SIGQUEUE_COUNT_H_
#define SNARE_KERNEL_GUEST_SIGQUEUE_COUNT_H_

#include <expected>
#include <string>

namespace snare::lab {

struct SigQueueCount {
  long queued = 0;
  long limit = 0;
};

std::expected<SigQueueCount, std::string> ReadSigQueueCount();

// The smallest of 25 reads over about 100 ms: a charge held for a moment by another
// process's signal in flight fades, a leaked one stays.
std::expected<SigQueueCount, std::string> ReadSettledSigQueueCount();

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_SIGQUEUE_COUNT_H_
