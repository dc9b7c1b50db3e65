// The syscalls the cost ladder measures: getppid (the pure trap cost) and two that do
// work (a 4 KiB pread, openat + close), so the overhead is seen next to useful work.
#ifndef SNARE_BENCH_SYSCALL_SUBJECT_H_
#define SNARE_BENCH_SYSCALL_SUBJECT_H_

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace snare::bench {

class SyscallSubject {
 public:
  // "getppid", "read4k" or "openat-close".
  static std::expected<SyscallSubject, std::string> Create(std::string_view name);
  SyscallSubject(SyscallSubject&& other) noexcept;
  SyscallSubject& operator=(SyscallSubject&&) = delete;
  ~SyscallSubject();

  // One iteration: exactly one trapped call for getppid and read4k, two for openat-close.
  void Call();
  // The syscall numbers a filter must act on.
  const std::vector<int>& numbers() const { return numbers_; }
  const std::string& name() const { return name_; }

  static const std::vector<std::string>& Names();

 private:
  SyscallSubject() = default;
  std::string name_;
  std::vector<int> numbers_;
  int fd_ = -1;
  std::string path_;
  char buf_[4096];
};

}  // namespace snare::bench

#endif  // SNARE_BENCH_SYSCALL_SUBJECT_H_
