#include "kernel/lab/command_stream.h"

#include <chrono>
#include <cmath>
#include <deque>

#include "util/subprocess.h"

namespace snare::lab {

StreamResult RunStreaming(const std::vector<std::string>& argv, const std::string& cwd,
                          double timeout_s, const std::function<void(const std::string&)>& line) {
  constexpr size_t kTailLines = 30;
  std::deque<std::string> tail;
  util::SubprocessOptions options;
  options.cwd = cwd;
  options.merge_stderr = true;
  options.keep_stdout = false;
  options.drain_after_exit = std::chrono::milliseconds(500);
  options.timeout =
      std::chrono::seconds(timeout_s > 0 ? static_cast<long>(std::ceil(timeout_s)) : 0);
  options.on_line = [&](const std::string& l) {
    tail.push_back(l);
    if (tail.size() > kTailLines) tail.pop_front();
    if (line) line(l);
  };
  util::SubprocessResult r = util::RunSubprocess(argv, options);
  StreamResult result;
  result.status = r.start_error.empty() ? r.status : -1;
  result.timed_out = r.timed_out;
  if (!r.start_error.empty()) tail.push_back(r.start_error);
  for (const auto& l : tail) result.tail += l + "\n";
  return result;
}

}  // namespace snare::lab
