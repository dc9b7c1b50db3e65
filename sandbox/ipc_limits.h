// The guest's System V shared memory, bounded like its tmpfs: a new IPC namespace starts with
// shmmax and shmall near 2^64, so segments could pin any amount of memory until the sandbox
// ends. Runs in init, whose user namespace owns the IPC namespace's sysctls.
#ifndef SNARE_SANDBOX_IPC_LIMITS_H_
#define SNARE_SANDBOX_IPC_LIMITS_H_

#include <cstdint>
#include <expected>
#include <string>

namespace snare::sandbox {

// shmmax = bytes, shmall = bytes in pages, through `proc` (a procfs mount of the caller's
// namespaces: "/proc"). Nothing is done where it has no kernel/shmmax (no SysV IPC) or where
// the caller may not write it (run by an unprivileged user, whose user namespace maps no
// root: the kernel gives those sysctls to that root alone).
std::expected<void, std::string> BoundSharedMemory(const std::string& proc, uint64_t bytes);

}  // namespace snare::sandbox

#endif  // SNARE_SANDBOX_IPC_LIMITS_H_
