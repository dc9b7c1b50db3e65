#include "sentry/program_resolver.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/path_search.h"

namespace snare::sentry {
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
  bool elf =
      n == static_cast<ssize_t>(sizeof(head)) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0;
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
  std::expected<std::string, ResolveError> first_error =
      std::unexpected(Error(127, name, "command not found"));
  for (const std::string& candidate :
       util::PathCandidates(name, path_env ? path_env : util::kDefaultPath)) {
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
      auto checked = Check(candidate, name);
      if (checked) return checked;
      if (first_error.error().exit_status == 127) first_error = checked;
    }
  }
  return first_error;
}

std::expected<Executable, ResolveError> ResolveInterpreters(const std::string& path,
                                                            std::vector<std::string> argv) {
  Executable exe{path, std::move(argv), {path}};
  for (int depth = 0; depth <= 4; ++depth) {
    int fd = open(exe.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::unexpected(Error(126, exe.path, strerror(errno)));
    char head[256] = {};
    ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
    close(fd);
    if (n < 2 || head[0] != '#' || head[1] != '!') return exe;
    std::string line(head + 2, static_cast<size_t>(n - 2));
    line = line.substr(0, line.find('\n'));
    auto trim = [](std::string s) {
      size_t b = s.find_first_not_of(" \t");
      if (b == std::string::npos) return std::string();
      size_t e = s.find_last_not_of(" \t");
      return s.substr(b, e - b + 1);
    };
    line = trim(line);
    size_t space = line.find_first_of(" \t");
    std::string interp = line.substr(0, space);
    std::string arg = space == std::string::npos ? "" : trim(line.substr(space));
    if (interp.empty()) {
      return std::unexpected(Error(126, exe.path, "bad interpreter line"));
    }
    std::vector<std::string> next = {interp};
    if (!arg.empty()) next.push_back(arg);
    next.push_back(exe.path);
    for (size_t i = 1; i < exe.argv.size(); ++i) next.push_back(exe.argv[i]);
    auto checked = Check(interp, interp);
    if (!checked) {
      return std::unexpected(
          Error(126, exe.path,
                interp + ": bad interpreter: " +
                    checked.error().message.substr(checked.error().message.rfind(": ") + 2)));
    }
    exe.path = interp;
    exe.argv = std::move(next);
    exe.files.push_back(interp);
  }
  return std::unexpected(Error(126, path, "too many levels of script interpreters"));
}

std::expected<Executable, ResolveError> ResolveExecutable(const std::vector<std::string>& argv,
                                                          const char* path_env) {
  auto program = ResolveProgram(argv[0], path_env);
  if (!program) return std::unexpected(program.error());
  return ResolveInterpreters(*program, argv);
}

std::expected<Executable, ResolveError> ResolveExecutableInside(
    const std::function<std::expected<void, std::string>()>& enter,
    const std::vector<std::string>& argv, const char* path_env) {
  auto failed = [&](const std::string& what) {
    return std::unexpected(Error(126, argv[0], "cannot look it up in the sandbox: " + what));
  };
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return failed(std::string("pipe: ") + strerror(errno));
  fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return failed(std::string("fork: ") + strerror(errno));
  }
  if (child == 0) {
    // The answer, NUL-separated: "ok", path, argv... or "error", status, message.
    close(fds[0]);
    std::string reply;
    auto add = [&reply](const std::string& field) { reply.append(field).push_back('\0'); };
    if (auto entered = enter(); !entered) {
      add("error");
      add("126");
      add("snare: " + argv[0] + ": cannot look it up in the sandbox: " + entered.error());
    } else {
      auto exe = ResolveExecutable(argv, path_env);
      if (exe) {
        add("ok");
        add(exe->path);
        for (const std::string& a : exe->argv) add(a);
      } else {
        add("error");
        add(std::to_string(exe.error().exit_status));
        add(exe.error().message);
      }
    }
    for (size_t done = 0; done < reply.size();) {
      ssize_t n = write(fds[1], reply.data() + done, reply.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string reply;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    reply.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
  }
  std::vector<std::string> fields;
  for (size_t start = 0; start < reply.size();) {
    const size_t end = reply.find('\0', start);
    if (end == std::string::npos) break;
    fields.push_back(reply.substr(start, end - start));
    start = end + 1;
  }
  if (fields.size() == 3 && fields[0] == "error") {
    return std::unexpected(ResolveError{fields[1] == "127" ? 127 : 126, fields[2]});
  }
  if (fields.size() < 3 || fields[0] != "ok") return failed("the lookup failed");
  return Executable{fields[1], std::vector<std::string>(fields.begin() + 2, fields.end())};
}

}  // namespace snare::sentry
