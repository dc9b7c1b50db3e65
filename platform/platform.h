// How a guest's syscalls reach the sentry. One interface; one subfolder per mechanism,
// chosen by name (platform_registry.h).
//
// Threading: a Context belongs to one sentry Task and is only used from that Task's fiber.
#ifndef SNARE_PLATFORM_PLATFORM_H_
#define SNARE_PLATFORM_PLATFORM_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "platform/systrap/shared_region.h"

namespace snare::platform {

// A trapped syscall, copied out of shared memory (values are the guest's: untrusted).
struct SyscallRequest {
  int32_t tid = 0;
  uint32_t depth = 0;  // nesting level (a guest signal handler trapping inside a trap)
  uint64_t seq = 0;
  uint64_t nr = 0;
  uint64_t args[6] = {};
  uint64_t rip = 0;
  char strings[2][systrap::kTraceString] = {};  // path-argument prefixes (only with --trace)
};

// What Context::Switch() returns.
enum class StopReason {
  kSyscall,  // the guest thread trapped; `syscall` is the request
  kGone,     // the guest thread no longer exists (exited or killed); the Task ends
};

struct Event {
  StopReason reason = StopReason::kGone;
  SyscallRequest syscall;
};

// The sentry's answer to a request.
struct Reply {
  enum Kind : uint8_t { kPassthrough, kReturn, kKill } kind = kPassthrough;
  int64_t value = 0;          // kReturn
  uint64_t copyout_addr = 0;  // kReturn: bytes the stub stores in guest memory first
  uint32_t copyout_len = 0;
  const uint8_t* copyout = nullptr;
};

// One guest thread as the sentry sees it.
class Context {
 public:
  virtual ~Context() = default;
  // Answers the request the previous Switch() returned (reply is null on the first call),
  // then suspends the calling Task until the guest thread traps again or is gone.
  virtual Event Switch(const Reply* reply) = 0;
  // Whether the last passthrough at `depth` with sequence `seq` has finished, and its result
  // (the stub reports it after executing the call; for --trace).
  virtual bool Completed(uint32_t depth, uint64_t seq, int64_t* result) const = 0;
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual std::string_view Name() const = 0;
  // The stub's mode for this platform.
  virtual systrap::Mode StubMode() const = 0;
  // True when traps are answered by the sentry through Contexts (out of process); false
  // when the stub answers them inside the guest (the sentry only supervises).
  virtual bool SentryAnswersTraps() const = 0;
};

}  // namespace snare::platform

#endif  // SNARE_PLATFORM_PLATFORM_H_
