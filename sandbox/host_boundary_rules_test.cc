#include "sandbox/host_boundary_rules.h"

#include <asm/unistd.h>
#include <fcntl.h>
#include <sys/personality.h>
#include <sys/socket.h>

#include <cerrno>
#include <initializer_list>

#include "gtest/gtest.h"
#include "policy/evaluator.h"

namespace snare::sandbox {
namespace {

using policy::Action;
using policy::Disposition;

class HostBoundaryRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    policy::PolicyBuilder b;
    AddHostBoundaryRules(&b);
    auto built = b.TryBuild();
    ASSERT_TRUE(built.has_value()) << built.error();
    table_ = *built;
  }
  Disposition Of(uint64_t nr, std::initializer_list<uint64_t> given) const {
    uint64_t args[6] = {};
    size_t i = 0;
    for (uint64_t a : given) args[i++] = a;
    return policy::Evaluate(table_, nr, args);
  }
  policy::PolicyTable table_;
};

constexpr uint64_t kCwd = static_cast<uint64_t>(AT_FDCWD);
constexpr Disposition kPass = {Action::kPassthrough, 0};
constexpr Disposition kEperm = {Action::kDeny, EPERM};

TEST_F(HostBoundaryRulesTest, NoModeCarriesSetuidOrSetgid) {
  for (const uint64_t mode : {04755, 02755, 06755, 04000, 0104755}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(Of(__NR_chmod, {0, mode}), kEperm);
    EXPECT_EQ(Of(__NR_fchmod, {3, mode}), kEperm);
    EXPECT_EQ(Of(__NR_fchmodat, {kCwd, 0, mode}), kEperm);
    EXPECT_EQ(Of(452, {kCwd, 0, mode, 0}), kEperm);  // fchmodat2
    EXPECT_EQ(Of(__NR_creat, {0, mode}), kEperm);
    EXPECT_EQ(Of(__NR_mknod, {0, mode, 0}), kEperm);
    EXPECT_EQ(Of(__NR_mknodat, {kCwd, 0, mode, 0}), kEperm);
    EXPECT_EQ(Of(__NR_open, {0, O_WRONLY | O_CREAT, mode}), kEperm);
    EXPECT_EQ(Of(__NR_openat, {kCwd, 0, O_WRONLY | O_CREAT | O_EXCL, mode}), kEperm);
    EXPECT_EQ(Of(__NR_openat, {kCwd, 0, O_WRONLY | O_TMPFILE, mode}), kEperm);
  }
  for (const uint64_t mode : {0755, 01777, 0644, 0}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(Of(__NR_chmod, {0, mode}), kPass);
    EXPECT_EQ(Of(__NR_fchmodat, {kCwd, 0, mode}), kPass);
    EXPECT_EQ(Of(__NR_openat, {kCwd, 0, O_WRONLY | O_CREAT, mode}), kPass);
    EXPECT_EQ(Of(__NR_mknodat, {kCwd, 0, mode, 0}), kPass);
  }
  // A mode open ignores (no O_CREAT, no O_TMPFILE) is not refused.
  EXPECT_EQ(Of(__NR_openat, {kCwd, 0, O_RDONLY, 06755}), kPass);
  EXPECT_EQ(Of(__NR_openat2, {kCwd, 0, 0, 24}), (Disposition{Action::kDeny, ENOSYS}));
}

TEST_F(HostBoundaryRulesTest, KeyringsPersonalityAndVsock) {
  for (const uint64_t nr : {__NR_add_key, __NR_keyctl, __NR_request_key}) {
    EXPECT_EQ(Of(nr, {}), kEperm) << nr;
  }
  for (const uint64_t p : {0u, uint32_t{PER_LINUX32}, uint32_t{UNAME26}, 0xffffffffu}) {
    EXPECT_EQ(Of(__NR_personality, {p}), kPass) << p;
  }
  EXPECT_EQ(Of(__NR_personality, {READ_IMPLIES_EXEC}), kEperm);
  EXPECT_EQ(Of(__NR_personality, {ADDR_NO_RANDOMIZE}), kEperm);
  EXPECT_EQ(Of(__NR_socket, {AF_VSOCK, SOCK_STREAM, 0}),
            (Disposition{Action::kDeny, EAFNOSUPPORT}));
  EXPECT_EQ(Of(__NR_socket, {AF_UNIX, SOCK_STREAM, 0}), kPass);
  EXPECT_EQ(Of(__NR_socket, {AF_INET, SOCK_STREAM, 0}), kPass);
}

}  // namespace
}  // namespace snare::sandbox
