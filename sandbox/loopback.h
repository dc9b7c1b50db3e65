// The loopback interface of a new network namespace, brought up so that programs can talk
// to themselves over 127.0.0.1 (it starts down).
#ifndef SNARE_SANDBOX_LOOPBACK_H_
#define SNARE_SANDBOX_LOOPBACK_H_

#include <expected>
#include <string>

namespace snare::sandbox {

std::expected<void, std::string> BringUpLoopback();

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_LOOPBACK_H_
