// Whole small files (/proc, /sys) as text.
#ifndef SNARE_KERNEL_GUEST_FILE_TEXT_H_
#define SNARE_KERNEL_GUEST_FILE_TEXT_H_

#include <expected>
#include <string>

namespace snare::lab {

// The file's contents, or "open PATH: reason".
std::expected<std::string, std::string> ReadFileText(const char* path);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_GUEST_FILE_TEXT_H_
