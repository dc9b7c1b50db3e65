// `snare lab`: builds the stock and patched 6.12 kernels, boots each under qemu with the
// lab's initramfs, runs the checks and benchmarks inside, stores one run per variant in
// snare bench's results store and prints the comparison.
#ifndef SNARE_KERNEL_LAB_LAB_COMMAND_H_
#define SNARE_KERNEL_LAB_LAB_COMMAND_H_

#include <string>
#include <vector>

namespace snare::lab {

inline constexpr const char* kLabUsage =
    "usage: snare lab build [--variants=LIST] [--cache=DIR] [--kernel-dir=DIR]\n"
    "       snare lab run   [--variants=LIST] [--quick] [--db=PATH] [--cache=DIR]\n"
    "                       [--kernel-dir=DIR] [--timeout=SECONDS] [--no-kvm]\n"
    "       snare lab smoke [--variants=LIST] [--cache=DIR] [--kernel-dir=DIR] [--no-kvm]\n"
    "  variants: stock and the folders of kernel/patches/6.12/ (default: all)\n"
    "  smoke: the patches apply, the kernels build and boot, the checks pass (for CI)\n";

int RunLabCommand(const std::vector<std::string>& args, const std::string& command_line);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_LAB_COMMAND_H_
