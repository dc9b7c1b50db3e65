// snare-runtime behind a real container engine: podman 4.3 from Debian runs containers from a
// rootfs this test builds out of the host's own binaries (busybox-static, python3 with its
// libraries; the standard library bound read-only), with runc and with snare-runtime side by
// side. Same output and exit status; kill, stop and rm -f leave no process; the container's
// calls are in snare's trace, podman's own seccomp profile among them.
#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/proc_scan.h"
#include "tests/snare_paths.h"
#include "util/path_search.h"
#include "util/subprocess.h"

namespace snare::tests {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

std::string Find(const char* name) {
  auto p = util::FindExecutable(
      name, std::string(getenv("PATH") ? getenv("PATH") : "") + ":/usr/sbin:/usr/bin:/sbin:/bin");
  return p ? *p : "";
}

// The shared libraries `binary` loads (ldd's "=> /path" and the interpreter).
std::vector<std::string> Libraries(const std::string& binary) {
  util::SubprocessResult r = util::RunSubprocess({"ldd", binary}, {});
  std::vector<std::string> libs;
  std::istringstream in(r.stdout_data);
  for (std::string line; std::getline(in, line);) {
    for (const std::string& word : {std::string("=> "), std::string("\t")}) {
      size_t at = line.find(word == "\t" ? "\t/" : "=> /");
      if (at == std::string::npos) continue;
      at = line.find('/', at);
      std::string path = line.substr(at, line.find(' ', at) - at);
      if (!path.empty()) libs.push_back(path);
      break;
    }
  }
  return libs;
}

void CopyInto(const std::string& root, const std::string& host_path) {
  const fs::path dst = fs::path(root) / fs::path(host_path).relative_path();
  fs::create_directories(dst.parent_path());
  fs::copy_file(fs::canonical(host_path), dst, fs::copy_options::overwrite_existing);
  fs::permissions(dst, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
}

class OciRuntimeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    podman_ = Find("podman");
    runc_ = Find("runc");
    auto runtime = RunfilePath("cmd/snare-runtime");
    if (runtime) runtime_ = *runtime;
    if (podman_.empty() || runc_.empty() || access("/bin/busybox", X_OK) != 0) return;
    root_ = MakeTempDir("oci-rootfs-");
    for (const char* d : {"bin", "proc", "dev", "sys", "tmp", "etc", "usr/lib/python3.11"}) {
      fs::create_directories(fs::path(root_) / d);
    }
    fs::copy_file("/bin/busybox", root_ + "/bin/busybox");
    for (const char* applet : {"sh", "echo", "tr", "wc", "sleep", "kill", "cat", "unshare", "true",
                               "grep", "hostname"}) {
      fs::create_symlink("busybox", root_ + "/bin/" + applet);
    }
    if (access("/usr/bin/python3.11", X_OK) == 0) {
      CopyInto(root_, "/usr/bin/python3.11");
      for (const std::string& lib : Libraries("/usr/bin/python3.11")) CopyInto(root_, lib);
      // ctypes (the seccomp-profile attack's probe) loads libffi.
      for (const auto& e : fs::directory_iterator("/usr/lib/python3.11/lib-dynload")) {
        if (!e.path().filename().string().starts_with("_ctypes.")) continue;
        for (const std::string& lib : Libraries(e.path())) CopyInto(root_, lib);
      }
    }
    out_ = MakeTempDir("oci-out-");
    // Can this machine run a container at all (cgroups, storage)? runc, not snare.
    util::SubprocessResult probe = Podman(runc_, {"/bin/true"}, {});
    if (probe.status != 0) {
      skip_ = "podman cannot run a container here with runc: " + probe.Describe();
    }
  }

  void SetUp() override {
    ASSERT_FALSE(runtime_.empty()) << "no //cmd:snare-runtime in the runfiles";
    if (podman_.empty() || runc_.empty()) GTEST_SKIP() << "podman and runc are not installed";
    if (access("/bin/busybox", X_OK) != 0) GTEST_SKIP() << "no /bin/busybox (busybox-static)";
    if (geteuid() != 0) GTEST_SKIP() << "rootful podman needs root";
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    marker_ = UniqueEnvMarker("SNARE_OCI_TEST");
  }

  void TearDown() override {
    if (!marker_.empty()) KillProcesses(ProcessesWithEnv(marker_));
  }

  // `podman --runtime=R run [FLAGS] --rootfs ROOT ARGV`, the flags podman needs here first.
  static util::SubprocessResult Podman(const std::string& runtime,
                                       const std::vector<std::string>& argv,
                                       const std::vector<std::string>& flags,
                                       const std::string& command = "run") {
    std::vector<std::string> cmd = {podman_,
                                    "--runtime=" + runtime,
                                    "--cgroup-manager=cgroupfs",
                                    command,
                                    "--network=none",
                                    "--ulimit",
                                    "nofile=1024:1024",
                                    "--ulimit",
                                    "nproc=1024:1024",
                                    "-v",
                                    "/usr/lib/python3.11:/usr/lib/python3.11:ro"};
    cmd.insert(cmd.end(), flags.begin(), flags.end());
    cmd.push_back("--rootfs");
    cmd.push_back(root_);
    cmd.insert(cmd.end(), argv.begin(), argv.end());
    util::SubprocessOptions options;
    options.timeout = seconds(120);
    return util::RunSubprocess(cmd, options);
  }

  static std::string Repro(const util::SubprocessResult& r) { return r.Describe(); }

  // The same container with runc and with snare-runtime.
  void ExpectSame(const std::vector<std::string>& argv, int expected_status) {
    util::SubprocessResult native = Podman(runc_, argv, {"--rm"});
    util::SubprocessResult snared = Podman(runtime_, argv, {"--rm", "--env", marker_});
    SCOPED_TRACE("runc:\n" + native.Describe() + "\nsnare-runtime:\n" + snared.Describe());
    EXPECT_EQ(native.status, expected_status);
    EXPECT_EQ(snared.status, native.status);
    EXPECT_EQ(snared.stdout_data, native.stdout_data);
  }

  static std::string podman_, runc_, runtime_, root_, out_, skip_;
  std::string marker_;
};

std::string OciRuntimeTest::podman_, OciRuntimeTest::runc_, OciRuntimeTest::runtime_,
    OciRuntimeTest::root_, OciRuntimeTest::out_, OciRuntimeTest::skip_;

TEST_F(OciRuntimeTest, ShellPipelineSameAsRunc) {
  ExpectSame({"/bin/sh", "-c", "echo one two three | tr ' ' '\\n' | wc -l; exit 7"}, 7);
}

TEST_F(OciRuntimeTest, PythonScriptSameAsRunc) {
  if (access((root_ + "/usr/bin/python3.11").c_str(), X_OK) != 0) GTEST_SKIP() << "no python3.11";
  ExpectSame({"/usr/bin/python3.11", "-c",
              "import os, sys, json\n"
              "r, w = os.pipe()\n"
              "if os.fork() == 0:\n"
              "    os.write(w, b'from the child'); os._exit(0)\n"
              "os.wait()\n"
              "print(json.dumps({'sum': sum(range(1000)), 'child': os.read(r, 64).decode(),\n"
              "                  'sh': os.path.exists('/bin/sh')}))\n"
              "sys.exit(3)"},
             3);
}

TEST_F(OciRuntimeTest, ForkAndSignalSameAsRunc) {
  // (Not the container's first process: under runc it is pid 1, which a signal it does not
  // handle leaves alone; under snare the sentry is pid 1. README, known limits.)
  ExpectSame({"/bin/sh", "-c",
              "sleep 30 & p=$!; kill -TERM $p; wait $p; echo child=$?; "
              "sh -c 'trap \"echo got-usr2\" USR2; kill -USR2 $$; kill -USR1 $$; echo no'; "
              "echo inner=$?; exit 5"},
             5);
}

// podman stop, kill and rm -f of a running container: afterwards no process of it is left.
TEST_F(OciRuntimeTest, StopKillAndRemoveLeaveNoProcess) {
  for (const std::vector<std::string>& end :
       {std::vector<std::string>{"kill"}, {"stop", "-t", "2"}, {"rm", "-f"}}) {
    SCOPED_TRACE(end[0]);
    util::SubprocessResult started = Podman(
        runtime_, {"/bin/sh", "-c", "sleep 1000 & sleep 1000; wait"}, {"-d", "--env", marker_});
    ASSERT_EQ(started.status, 0) << started.Describe();
    std::string id = started.stdout_data.substr(0, started.stdout_data.find('\n'));
    // Both sleeps under snare are up (the guest carries the marker in its environment). Count
    // them by name: the whole set flickers while the stub loads sh (its environ is unreadable
    // during the execve), and the sentry's processes alone would reach any plain count.
    auto sleeps = [&] {
      size_t n = 0;
      for (const ProcessInfo& p : ProcessesWithEnv(marker_)) n += p.cmdline == "sleep 1000";
      return n;
    };
    for (int i = 0; i < 200 && sleeps() < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(sleeps(), 2u) << DescribeProcesses(ProcessesWithEnv(marker_));
    std::vector<std::string> cmd = {podman_, "--runtime=" + runtime_, "--cgroup-manager=cgroupfs"};
    cmd.insert(cmd.end(), end.begin(), end.end());
    cmd.push_back(id);
    util::SubprocessResult r = util::RunSubprocess(cmd, {});
    EXPECT_EQ(r.status, 0) << r.Describe();
    std::vector<ProcessInfo> left;
    for (int i = 0; i < 100; ++i) {
      left = ProcessesWithEnv(marker_);
      if (left.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(left.empty()) << DescribeProcesses(left);
    util::RunSubprocess({podman_, "--cgroup-manager=cgroupfs", "rm", "-f", id}, {});
  }
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The container's calls are in the trace file, and podman's own seccomp profile (which
// refuses sethostname without CAP_SYS_ADMIN, with EPERM) is enforced by snare, the refusal
// traced; mount, which the profile allows, fails with the kernel's EPERM as under runc.
TEST_F(OciRuntimeTest, TraceShowsTheContainersCallsAndTheProfilesRefusals) {
  const std::string dir = MakeTempDir("oci-trace-");
  const std::vector<std::string> argv = {"/bin/sh", "-c",
                                         "echo traced-output; mount -t tmpfs none /tmp; "
                                         "echo mount=$?; hostname snare-probe; echo host=$?"};
  util::SubprocessResult native = Podman(runc_, argv, {"--rm"});
  util::SubprocessResult r =
      Podman(runtime_, argv,
             {"--rm", "--env", marker_, "--annotation", "dev.snare.trace=true", "--annotation",
              "dev.snare.stats=json", "--annotation", "dev.snare.output-dir=" + dir, "--cidfile",
              dir + "/cid"});
  ASSERT_EQ(r.status, 0) << r.Describe();
  EXPECT_EQ(r.stdout_data, native.stdout_data) << native.Describe();
  EXPECT_NE(r.stdout_data.find("mount=1"), std::string::npos) << r.Describe();
  EXPECT_NE(r.stdout_data.find("host=1"), std::string::npos) << r.Describe();
  const std::string id = ReadAll(dir + "/cid");
  ASSERT_FALSE(id.empty());
  const std::string trace = ReadAll(dir + "/" + id + "/trace.txt");
  EXPECT_NE(trace.find(", 14) = 14\n"), std::string::npos) << trace.substr(0, 3000);  // the echo
  EXPECT_NE(trace.find("mount(\"none\", \"/tmp\", "), std::string::npos) << trace.substr(0, 3000);
  EXPECT_NE(trace.find("= -1 EPERM (Operation not permitted)\n"), std::string::npos)
      << trace.substr(0, 3000);  // mount: the kernel's answer
  EXPECT_NE(trace.find(", 11) = -1 EPERM (Operation not permitted) <denied>"), std::string::npos)
      << trace.substr(0, 3000);  // sethostname: the profile's
  const std::string stats = ReadAll(dir + "/" + id + "/stats.json");
  EXPECT_NE(stats.find("\"syscalls\""), std::string::npos) << stats;
}

// podman exec: the process it starts runs under snare too, under the container's profile
// (runc no longer holds it), with a trace of its own.
TEST_F(OciRuntimeTest, ExecRunsUnderSnareWithTheContainersProfile) {
  const std::string dir = MakeTempDir("oci-exec-");
  util::SubprocessResult started =
      Podman(runtime_, {"/bin/sleep", "1000"},
             {"-d", "--env", marker_, "--annotation", "dev.snare.trace=true", "--annotation",
              "dev.snare.output-dir=" + dir});
  ASSERT_EQ(started.status, 0) << started.Describe();
  const std::string id = started.stdout_data.substr(0, started.stdout_data.find('\n'));
  util::SubprocessResult r = util::RunSubprocess(
      {podman_, "--runtime=" + runtime_, "--cgroup-manager=cgroupfs", "exec", id, "/bin/sh", "-c",
       "tr '\\0' ' ' < /proc/$PPID/cmdline; echo; hostname snare-probe; echo host=$?"},
      {});
  util::RunSubprocess({podman_, "--cgroup-manager=cgroupfs", "rm", "-f", id}, {});
  EXPECT_EQ(r.status, 0) << r.Describe();
  EXPECT_NE(r.stdout_data.find("/.snare/snare run --profile=container"), std::string::npos)
      << r.Describe();
  EXPECT_NE(r.stdout_data.find("host=1"), std::string::npos) << r.Describe();
  std::string exec_trace;
  for (const auto& e : fs::directory_iterator(dir + "/" + id)) {
    if (e.path().filename().string().starts_with("exec-")) exec_trace = ReadAll(e.path());
  }
  EXPECT_NE(exec_trace.find(", 11) = -1 EPERM (Operation not permitted) <denied>"),
            std::string::npos)
      << exec_trace;
  EXPECT_NE(exec_trace.find("<denied>"), std::string::npos) << exec_trace;
}

// A container user who is not root (USER, --user, exec -u): the same output as under runc,
// and the trace and stats it asked for are written.
TEST_F(OciRuntimeTest, NonRootUserSameAsRunc) {
  const std::vector<std::string> argv = {"/bin/sh", "-c",
                                         "grep -E '^(Uid|Gid):' /proc/self/status; echo ok"};
  util::SubprocessResult native = Podman(runc_, argv, {"--rm", "--user", "1000:1000"});
  const std::string dir = MakeTempDir("oci-user-");
  util::SubprocessResult r =
      Podman(runtime_, argv,
             {"--rm", "--user", "1000:1000", "--env", marker_, "--annotation",
              "dev.snare.trace=true", "--annotation", "dev.snare.stats=json", "--annotation",
              "dev.snare.output-dir=" + dir, "--cidfile", dir + "/cid"});
  SCOPED_TRACE("runc:\n" + native.Describe() + "\nsnare-runtime:\n" + r.Describe());
  EXPECT_EQ(native.status, 0);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.stdout_data, native.stdout_data);
  EXPECT_NE(r.stdout_data.find("Uid:\t1000"), std::string::npos);
  const std::string id = ReadAll(dir + "/cid");
  ASSERT_FALSE(id.empty());
  EXPECT_NE(ReadAll(dir + "/" + id + "/stats.json").find("\"syscalls\""), std::string::npos);
  EXPECT_NE(ReadAll(dir + "/" + id + "/trace.txt").find(", 3) = 3\n"), std::string::npos);  // ok
}

// What the engine grants, snare does not take away: with CAP_SYS_ADMIN, mount works as
// under runc, with podman's profile (which allows it then) and without a profile.
TEST_F(OciRuntimeTest, WhatTheEngineGrantsWorksAsUnderRunc) {
  const std::vector<std::string> argv = {"/bin/sh", "-c",
                                         "mount -t tmpfs none /tmp; echo mount=$?"};
  for (const std::vector<std::string>& grant :
       {std::vector<std::string>{"--cap-add", "SYS_ADMIN"},
        std::vector<std::string>{"--cap-add", "SYS_ADMIN", "--security-opt",
                                 "seccomp=unconfined"}}) {
    SCOPED_TRACE(grant.back());
    std::vector<std::string> flags = {"--rm"};
    flags.insert(flags.end(), grant.begin(), grant.end());
    util::SubprocessResult native = Podman(runc_, argv, flags);
    flags.insert(flags.end(), {"--env", marker_});
    util::SubprocessResult snared = Podman(runtime_, argv, flags);
    EXPECT_NE(native.stdout_data.find("mount=0"), std::string::npos) << native.Describe();
    EXPECT_EQ(snared.stdout_data, native.stdout_data) << snared.Describe();
  }
}

// The attack: root in the container, or its user 1000, rewrites the seccomp profile that every
// later exec reads (where it was and where it is), so that the next exec runs without the
// engine's profile. Under runc, and under snare before the rewrite, podman's profile answers
// add_key with ENOSYS (38); with the profile gone it would succeed.
TEST_F(OciRuntimeTest, SeccompProfileRewriteChangesNothing) {
  if (access((root_ + "/usr/bin/python3.11").c_str(), X_OK) != 0) GTEST_SKIP() << "no python3.11";
  const std::string add_key =
      "/usr/bin/python3.11 -c \"import ctypes; c = ctypes.CDLL(None, use_errno=True); "
      "r = c.syscall(248, b'user', b'snare-probe', b'v', 1, -3); "
      "print('add_key', r, ctypes.get_errno())\"";
  util::SubprocessResult native = Podman(runc_, {"/bin/sh", "-c", add_key}, {"--rm"});
  ASSERT_NE(native.stdout_data.find("add_key -1 38"), std::string::npos)
      << "podman's profile answers add_key with ENOSYS under runc: " << native.Describe();
  util::SubprocessResult started =
      Podman(runtime_, {"/bin/sleep", "1000"}, {"-d", "--env", marker_});
  ASSERT_EQ(started.status, 0) << started.Describe();
  const std::string id = started.stdout_data.substr(0, started.stdout_data.find('\n'));
  auto exec = [&](const std::vector<std::string>& flags, const std::string& script) {
    std::vector<std::string> cmd = {podman_, "--runtime=" + runtime_, "--cgroup-manager=cgroupfs",
                                    "exec"};
    cmd.insert(cmd.end(), flags.begin(), flags.end());
    cmd.insert(cmd.end(), {id, "/bin/sh", "-c", script});
    return util::RunSubprocess(cmd, {});
  };
  util::SubprocessResult before = exec({}, add_key);
  EXPECT_NE(before.stdout_data.find("add_key -1 38"), std::string::npos) << before.Describe();
  const std::string rewrite =
      "for f in /.snare/policy/seccomp.json /.snare/out/seccomp.json; do "
      "echo '{\"defaultAction\":\"SCMP_ACT_ALLOW\"}' > $f; echo \"$f write=$?\"; done 2>&1";
  for (const std::vector<std::string>& who :
       {std::vector<std::string>{}, std::vector<std::string>{"--user", "1000"}}) {
    SCOPED_TRACE(who.empty() ? "as the container's root" : "as its user 1000");
    util::SubprocessResult wrote = exec(who, rewrite);
    util::SubprocessResult after = exec({}, add_key);
    EXPECT_NE(after.stdout_data.find("add_key -1 38"), std::string::npos)
        << "an exec after the rewrite ran without the engine's profile:\n"
        << wrote.Describe() << after.Describe();
  }
  util::RunSubprocess({podman_, "--cgroup-manager=cgroupfs", "rm", "-f", id}, {});
}

// Rootless podman: an ordinary user (tools/setup.sh's snareuser, with its subordinate ids
// from useradd) runs the container's root and a --user 1000; runc's output under
// snare-runtime.
TEST_F(OciRuntimeTest, RootlessPodmanSameAsRunc) {
  const passwd* pw = getpwnam("snareuser");
  if (!pw) GTEST_SKIP() << "no user snareuser (tools/setup.sh makes it)";
  if (Find("newuidmap").empty()) GTEST_SKIP() << "no newuidmap (Debian's uidmap)";
  const uid_t uid = pw->pw_uid;
  const gid_t gid = pw->pw_gid;
  // The root, the runtime and podman's state: the user's own.
  const std::string dir = MakeTempDir("oci-rootless-");
  ASSERT_FALSE(dir.empty());
  const std::string root = dir + "/root", runtime = dir + "/snare-runtime";
  fs::copy(root_, root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::copy_file(runtime_, runtime);
  fs::create_directories(dir + "/home");
  fs::create_directories(dir + "/run");
  ASSERT_EQ(lchown(dir.c_str(), uid, gid), 0);
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    ASSERT_EQ(lchown(e.path().c_str(), uid, gid), 0) << e.path();
  }
  chmod((dir + "/run").c_str(), 0700);
  auto podman = [&](const std::string& runtime_path, const std::vector<std::string>& flags) {
    std::vector<std::string> cmd = {
        "setpriv", "--reuid=" + std::to_string(uid), "--regid=" + std::to_string(gid),
        "--init-groups", "env", "-i", "HOME=" + dir + "/home", "XDG_RUNTIME_DIR=" + dir + "/run",
        "PATH=/usr/sbin:/usr/bin:/sbin:/bin", podman_, "--runtime=" + runtime_path,
        "--cgroup-manager=cgroupfs", "run",
        // No --rm: its cleanup process fails here (vfs storage in a
        // fresh home) and podman waits 20 s for it; the storage goes
        // with the directory.
        "--network=none", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"};
    cmd.insert(cmd.end(), flags.begin(), flags.end());
    cmd.insert(cmd.end(), {"--rootfs", root, "/bin/sh", "-c",
                           "grep -E '^(Uid|Gid):' /proc/self/status; hostname snare-probe; "
                           "echo host=$?"});
    util::SubprocessOptions options;
    options.cwd = dir;
    options.timeout = seconds(120);
    return util::RunSubprocess(cmd, options);
  };
  // Rootless podman leaves a pause process (it holds the user namespace): gone at the end,
  // with anything else that ran with this runtime directory.
  struct Reaper {
    std::string env;
    ~Reaper() { KillProcesses(ProcessesWithEnv(env)); }
  } reaper{"XDG_RUNTIME_DIR=" + dir + "/run"};
  for (const std::vector<std::string>& user :
       {std::vector<std::string>{}, std::vector<std::string>{"--user", "1000:1000"}}) {
    SCOPED_TRACE(user.empty() ? "the container's root" : "--user 1000:1000");
    util::SubprocessResult native = podman(runc_, user);
    util::SubprocessResult snared = podman(runtime, user);
    EXPECT_EQ(native.status, 0) << native.Describe();
    EXPECT_NE(native.stdout_data.find("host=1"), std::string::npos) << native.Describe();
    EXPECT_EQ(snared.status, native.status) << snared.Describe();
    EXPECT_EQ(snared.stdout_data, native.stdout_data) << snared.Describe();
  }
}

TEST_F(OciRuntimeTest, BadAnnotationIsReportedByPodman) {
  util::SubprocessResult r =
      Podman(runtime_, {"/bin/true"}, {"--rm", "--annotation", "dev.snare.platform=ptrace"});
  EXPECT_NE(r.status, 0) << r.Describe();
  EXPECT_NE(
      (r.stderr_data + r.stdout_data).find("dev.snare.platform=ptrace: choose systrap or inproc"),
      std::string::npos)
      << r.Describe();
}

// containerd 1.6 from Debian, a private instance (its own root, state and socket), as a
// second client: `ctr run --runc-binary` with the same root.
TEST_F(OciRuntimeTest, ContainerdRunsItWithCtr) {
  const std::string containerd = Find("containerd"), ctr = Find("ctr");
  if (containerd.empty() || ctr.empty()) GTEST_SKIP() << "containerd and ctr are not installed";
  const std::string dir = MakeTempDir("containerd-");
  const std::string sock = dir + "/containerd.sock";
  std::ofstream(dir + "/config.toml")
      << "version = 2\nroot = \"" << dir << "/root\"\n"
      << "state = \"" << dir << "/state\"\n[grpc]\n  address = \"" << sock << "\"\n";
  util::SubprocessOptions daemon_options;
  daemon_options.timeout = seconds(0);
  daemon_options.extra_env = {marker_};
  util::Subprocess daemon;
  ASSERT_TRUE(daemon.Start({containerd, "--config", dir + "/config.toml"}, daemon_options))
      << "cannot start containerd";
  struct stat st;
  for (int i = 0; i < 200 && stat(sock.c_str(), &st) != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto run = [&](const std::string& runtime, const std::string& id) {
    util::SubprocessOptions options;
    options.timeout = seconds(120);
    return util::RunSubprocess(
        {ctr, "--address", sock, "run", "--rm", "--runc-binary", runtime, "--rootfs", root_, id,
         "/bin/sh", "-c", "echo one two | wc -w; tr '\\0' ' ' < /proc/1/cmdline; echo; exit 4"},
        options);
  };
  if (stat(sock.c_str(), &st) != 0) {
    kill(daemon.pid(), SIGKILL);
    daemon.Wait();
    GTEST_SKIP() << "containerd did not come up here";
  }
  util::SubprocessResult native = run(runc_, "snare-test-runc");
  util::SubprocessResult snared = run(runtime_, "snare-test-snare");
  kill(daemon.pid(), SIGTERM);
  daemon.Wait();
  if (native.status != 4) GTEST_SKIP() << "ctr cannot run a container here: " << native.Describe();
  EXPECT_EQ(snared.status, 4) << snared.Describe();
  EXPECT_EQ(snared.stdout_data.substr(0, 2), "2\n") << snared.Describe();
  // The container's pid 1 is snare's sentry, running the command.
  EXPECT_NE(snared.stdout_data.find("/.snare/snare run --profile=container"), std::string::npos)
      << snared.Describe();
}

TEST_F(OciRuntimeTest, VersionNamesRunc) {
  util::SubprocessResult r = util::RunSubprocess({runtime_, "--version"}, {});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.stdout_data.find("snare-runtime version"), std::string::npos) << r.Describe();
  EXPECT_NE(r.stdout_data.find("runc: /"), std::string::npos) << r.Describe();
}

}  // namespace
}  // namespace snare::tests
