#include "sentry/program_resolver.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace snare {
namespace {

ResolveError Error(int status, std::string_view name, std::string_view what) {
  return {status, "snare: " + std::string(name) + ": " + std::string(what)};
}

// Checks that path can be executed by the stub's loader.
std::expected<std::string, ResolveError> Check(const std::string& path, std::string_view name) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    int err = errno;
    return std::unexpected(Error(err == ENOENT || err == ENOTDIR ? 127 : 126, name, strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) return std::unexpected(Error(126, name, "Is a directory"));
  if (!S_ISREG(st.st_mode) || access(path.c_str(), X_OK) != 0) {
    return std::unexpected(Error(126, name, "Permission denied"));
  }
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(Error(126, name, strerror(errno)));
  unsigned char head[sizeof(Elf64_Ehdr)] = {};
  ssize_t n = pread(fd, head, sizeof(head), 0);
  close(fd);
  if (n >= 2 && head[0] == '#' && head[1] == '!') return path;
  Elf64_Ehdr eh;
  std::memcpy(&eh, head, sizeof(eh));
  bool elf = n == static_cast<ssize_t>(sizeof(head)) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0;
  if (!elf || eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
      (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
    return std::unexpected(Error(126, name, "cannot execute binary file: Exec format error"));
  }
  return path;
}

}  // namespace

std::expected<std::string, ResolveError> ResolveProgram(std::string_view name,
                                                        const char* path_env) {
  if (name.empty()) return std::unexpected(Error(127, name, "command not found"));
  if (name.find('/') != std::string_view::npos) return Check(std::string(name), name);
  std::string_view path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  std::expected<std::string, ResolveError> first_error =
      std::unexpected(Error(127, name, "command not found"));
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string_view::npos) end = path.size();
    std::string dir(path.substr(start, end - start));
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + std::string(name);
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
      auto checked = Check(candidate, name);
      if (checked) return checked;
      if (first_error.error().exit_status == 127) first_error = checked;
    }
    start = end + 1;
  }
  return first_error;
}

}  // namespace snare
