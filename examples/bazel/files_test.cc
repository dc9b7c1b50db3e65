// A plain test with no knowledge of snare: it writes and reads files under TEST_TMPDIR,
// makes a directory, and runs a child through a pipe.
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

int main() {
  const char* tmp = getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp ? tmp : "/tmp") + "/example";
  if (mkdir(dir.c_str(), 0755) != 0) {
    perror("mkdir");
    return 1;
  }
  const std::string path = dir + "/f.txt";
  FILE* f = fopen(path.c_str(), "w");
  if (!f || fputs("hello from a test\n", f) < 0 || fclose(f) != 0) return 1;
  char line[64] = {};
  f = fopen(path.c_str(), "r");
  if (!f || !fgets(line, sizeof(line), f)) return 1;
  fclose(f);
  if (std::string(line) != "hello from a test\n") return 1;
  int fds[2];
  if (pipe(fds) != 0) return 1;
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    const char msg[] = "child";
    _exit(write(fds[1], msg, sizeof(msg)) == sizeof(msg) ? 0 : 1);
  }
  close(fds[1]);
  char got[16] = {};
  const ssize_t n = read(fds[0], got, sizeof(got));
  int status = 0;
  waitpid(child, &status, 0);
  if (n != 6 || std::string(got) != "child" || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return 1;
  }
  printf("files_test: ok\n");
  return 0;
}
