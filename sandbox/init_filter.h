// The seccomp filter of the sandbox's init: after it has forked the guest, init only waits,
// forwards signals and exits, so every other syscall kills it.
#ifndef SNARE_SANDBOX_INIT_FILTER_H_
#define SNARE_SANDBOX_INIT_FILTER_H_

#include <expected>
#include <string>

namespace snare::sandbox {

std::expected<void, std::string> InstallInitFilter();

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_INIT_FILTER_H_
