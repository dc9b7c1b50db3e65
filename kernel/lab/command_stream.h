// A lab command (tar, patch, make, qemu) run through util::Subprocess with its combined
// output handed over line by line (progress for long builds and boots), and the last lines
// kept for error messages.
#ifndef SNARE_KERNEL_LAB_COMMAND_STREAM_H_
#define SNARE_KERNEL_LAB_COMMAND_STREAM_H_

#include <functional>
#include <string>
#include <vector>

namespace snare::lab {

struct StreamResult {
  int status = -1;         // as a shell reports it; -1 when it could not start
  bool timed_out = false;  // killed at the limit
  std::string tail;        // the last lines of output, for error messages
};

// cwd may be empty. timeout_s <= 0: no limit. The process group is killed at the limit.
StreamResult RunStreaming(const std::vector<std::string>& argv, const std::string& cwd,
                          double timeout_s, const std::function<void(const std::string&)>& line);

}  // namespace snare::lab

#endif  // SNARE_KERNEL_LAB_COMMAND_STREAM_H_
