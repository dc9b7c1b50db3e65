#include "sentry/notify_server.h"

#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "abi/syscall_table.h"
#include "trace/trace_line.h"
#include "util/scheduler_slice.h"

namespace snare::sentry {

using policy::Verdict;

NotifyServer::NotifyServer(int listener, const policy::PolicyContext& policy, TraceSink* trace)
    : listener_(listener),
      stop_fd_(eventfd(0, EFD_CLOEXEC)),
      policy_(policy),
      trace_(trace),
      counters_(abi::kSyscallLimit) {
  thread_ = std::thread([this] {
    // A notified guest thread waits in the kernel until this thread answers: like the
    // sentry's (run_guest.cc), it should run soon after it is woken.
    (void)util::RequestSchedulerSlice(util::kShortestSchedulerSliceNs);
    Run();
  });
}

NotifyServer::~NotifyServer() {
  Stop();
  close(listener_);
  if (stop_fd_ >= 0) close(stop_fd_);
}

void NotifyServer::Stop() {
  if (!thread_.joinable()) return;
  uint64_t one = 1;
  (void)!write(stop_fd_, &one, sizeof(one));
  thread_.join();
}

int32_t NotifyServer::GuestTid(pid_t host_tid) {
  auto it = guest_tids_.find(host_tid);
  if (it != guest_tids_.end()) return it->second;
  int32_t tid = host_tid;
  // "NSpid: HOST ... GUEST": the last is the id in the guest's own pid namespace.
  const std::string path = "/proc/" + std::to_string(host_tid) + "/status";
  if (FILE* f = fopen(path.c_str(), "re")) {
    char line[256];
    while (fgets(line, sizeof(line), f)) {
      if (strncmp(line, "NSpid:", 6) != 0) continue;
      const char* last = strrchr(line, '\t');
      if (!last) last = strrchr(line, ' ');
      if (last) tid = static_cast<int32_t>(atoi(last + 1));
      break;
    }
    fclose(f);
  }
  if (guest_tids_.size() > 4096) guest_tids_.clear();  // tids are reused; keep it small
  guest_tids_[host_tid] = tid;
  return tid;
}

void NotifyServer::CopyPath(pid_t pid, uint64_t addr, char* out, size_t cap) {
  out[0] = 0;
  if (!addr || cap < 2) return;
  iovec local = {out, cap - 1};
  iovec remote = {reinterpret_cast<void*>(addr), cap - 1};
  // A path may end just before an unmapped page: read up to the page's end first.
  const size_t to_page_end = 4096 - (addr & 4095);
  if (to_page_end < cap - 1) local.iov_len = remote.iov_len = to_page_end;
  ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
  if (n <= 0) return;
  out[n] = 0;
  if (static_cast<size_t>(n) == to_page_end && strnlen(out, n) == static_cast<size_t>(n)) {
    iovec more_local = {out + n, cap - 1 - n};
    iovec more_remote = {reinterpret_cast<void*>(addr + n), cap - 1 - n};
    ssize_t m = process_vm_readv(pid, &more_local, 1, &more_remote, 1, 0);
    if (m > 0) out[n + m] = 0;
  }
}

bool NotifyServer::Answer(const seccomp_notif& n, seccomp_notif_resp* resp) {
  const uint64_t nr = static_cast<uint32_t>(n.data.nr);
  uint64_t args[6];
  for (int i = 0; i < 6; ++i) args[i] = n.data.args[i];
  const Verdict verdict = policy::Decide(policy_, nr, args);
  resp->id = n.id;
  if (verdict.kind == Verdict::kReturn) {
    resp->error = verdict.value < 0 ? static_cast<int32_t>(verdict.value) : 0;
    resp->val = verdict.value < 0 ? 0 : verdict.value;
  } else if (verdict.kind == Verdict::kKill) {
    resp->error = -ENOSYS;
  } else {
    resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;  // the kernel runs the call as made
  }
  if (nr < counters_.size()) {
    SentryCounters& c = counters_[nr];
    ++c.calls;
    c.denied += verdict.kind == Verdict::kReturn && verdict.value < 0;
    c.killed += verdict.kind == Verdict::kKill;
  }
  const bool kill_it = verdict.kind == Verdict::kKill;
  if (!trace_) return kill_it;
  char strings[2][trace::kPathPrefixBytes];
  strings[0][0] = strings[1][0] = 0;
  if (const abi::SyscallInfo* info = abi::FindSyscall(nr)) {
    int used = 0;
    for (int i = 0; i < info->nargs && used < 2; ++i) {
      if (info->args[i] == abi::ArgKind::kPath) {
        CopyPath(static_cast<pid_t>(n.pid), args[i], strings[used++], sizeof(strings[0]));
      }
    }
  }
  char line[1024];
  trace::TraceCall call = {GuestTid(static_cast<pid_t>(n.pid)),
                           nr,
                           args,
                           {strings[0], strings[1]},
                           trace::kPathPrefixBytes};
  const bool answered = verdict.kind == Verdict::kReturn;
  const char* note = answered ? (verdict.value < 0 ? "denied, notify" : "emulated, notify")
                     : verdict.kind == Verdict::kKill ? "killed, notify"
                                                      : "notify";
  size_t len = trace::FormatTraceLine(line, sizeof(line), call, answered, verdict.value, note);
  trace_->Write(line, len);
  return kill_it;
}

void NotifyServer::Run() {
  seccomp_notif_sizes sizes = {};
  if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) return;
  // The kernel's structs may have grown: buffers of its size, at least ours.
  std::vector<char> notif_buf(std::max<size_t>(sizes.seccomp_notif, sizeof(seccomp_notif)));
  std::vector<char> resp_buf(
      std::max<size_t>(sizes.seccomp_notif_resp, sizeof(seccomp_notif_resp)));
  for (;;) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) return;  // no guest uses the filter
    if (!(fds[0].revents & POLLIN)) continue;
    std::memset(notif_buf.data(), 0, notif_buf.size());
    auto* n = reinterpret_cast<seccomp_notif*>(notif_buf.data());
    if (ioctl(listener_, SECCOMP_IOCTL_NOTIF_RECV, n) != 0) continue;  // ENOENT: it died
    std::memset(resp_buf.data(), 0, resp_buf.size());
    auto* resp = reinterpret_cast<seccomp_notif_resp*>(resp_buf.data());
    const bool kill_it = Answer(*n, resp);
    // Still the same call (the thread may have died, its pid been reused)?
    uint64_t id = n->id;
    if (ioctl(listener_, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0) continue;
    ioctl(listener_, SECCOMP_IOCTL_NOTIF_SEND, resp);
    // As SECCOMP_RET_KILL_PROCESS would: the whole process dies by SIGSYS (the stub's
    // handler takes a SIGSYS that is not seccomp's for a kill).
    if (kill_it) kill(static_cast<pid_t>(n->pid), SIGSYS);
  }
}

}  // namespace snare::sentry
