// The syscalls the cost ladder measures: getppid (the pure trap cost), two that do work (a
// 4 KiB pread, openat + close), so the overhead is seen next to useful work, and getppid
// after 1 ms of the guest's own work (getppid-gap): a sentry that sleeps between calls pays
// its wake-up on every one.
#ifndef SNARE_BENCH_SYSCALL_SUBJECT_H_
#define SNARE_BENCH_SYSCALL_SUBJECT_H_

#include <sys/types.h>

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace snare::bench {

class SyscallSubject {
 public:
  // "getppid", "read4k", "openat-close" or "getppid-gap".
  static std::expected<SyscallSubject, std::string> Create(std::string_view name);
  SyscallSubject(SyscallSubject&& other) noexcept;
  SyscallSubject& operator=(SyscallSubject&&) = delete;
  ~SyscallSubject();

  // One iteration: exactly one trapped call for getppid and read4k, two for openat-close.
  void Call();
  // The syscall numbers a filter must act on.
  const std::vector<int>& numbers() const { return numbers_; }
  const std::string& name() const { return name_; }
  // The guest's own work in each iteration (getppid-gap), which the ladder leaves out.
  uint64_t work_ns() const { return gap_ticks_ ? kGapNs : 0; }

  static const std::vector<std::string>& Names();

 private:
  SyscallSubject() = default;
  std::string name_;
  std::vector<int> numbers_;
  static constexpr uint64_t kGapNs = 1'000'000;

  int fd_ = -1;
  uint64_t gap_ticks_ = 0;               // getppid-gap: TSC ticks of work before each call
  volatile ssize_t benchmark_sink_ = 0;  // keeps pread's result
  std::string path_;
  char buf_[4096];
};

}  // namespace snare::bench

#endif  // SNARE_BENCH_SYSCALL_SUBJECT_H_
