#include "policy/seccomp_profile.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <cerrno>
#include <memory>

#include "policy/default_policy.h"
#include "policy/evaluator.h"

namespace snare::policy {
namespace {

constexpr char kProfile[] = R"({
  "defaultAction": "SCMP_ACT_ERRNO",
  "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86"],
  "syscalls": [
    {"names": ["read", "write", "exit_group", "getppid", "not_a_syscall_anywhere"],
     "action": "SCMP_ACT_ALLOW"},
    {"names": ["personality"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_EQ"}]},
    {"names": ["personality"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 0, "value": 8, "op": "SCMP_CMP_EQ"}]},
    {"names": ["clone"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 0, "value": 2114060288, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
     "excludes": {"caps": ["CAP_SYS_ADMIN"]}},
    {"names": ["clone"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_ADMIN"]}},
    {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38},
    {"names": ["mount"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "99.0"}},
    {"names": ["ptrace"], "action": "SCMP_ACT_KILL_PROCESS"}
  ]
})";

ProfileHost Host(std::vector<std::string> caps = {}) {
  ProfileHost host;
  host.caps = std::move(caps);
  host.kernel_major = 6;
  host.kernel_minor = 1;
  return host;
}

PolicyTable Restricted(const ProfileHost& host) {
  auto profile = ParseSeccompProfile(kProfile, "p.json", host);
  EXPECT_TRUE(profile.has_value()) << profile.error();
  auto base = DefaultPolicy().TryBuild();
  EXPECT_TRUE(base.has_value());
  auto table = RestrictByProfile(*base, *profile);
  EXPECT_TRUE(table.has_value()) << table.error();
  return *table;
}

Disposition Call(const PolicyTable& t, uint64_t nr, uint64_t a0 = 0) {
  const uint64_t args[6] = {a0, 0, 0, 0, 0, 0};
  return Evaluate(t, nr, args);
}

TEST(SeccompProfileTest, AllowsWhatItListsAndDeniesTheRestWithItsErrno) {
  const PolicyTable t = Restricted(Host());
  EXPECT_EQ(Call(t, SYS_read).action, Action::kPassthrough);
  EXPECT_EQ(Call(t, SYS_getppid).action, Action::kPassthrough);
  const Disposition mkdir = Call(t, SYS_mkdir);
  EXPECT_EQ(mkdir.action, Action::kDeny);
  EXPECT_EQ(mkdir.err, EPERM);
  const Disposition clone3 = Call(t, SYS_clone3);
  EXPECT_EQ(clone3.action, Action::kDeny);
  EXPECT_EQ(clone3.err, ENOSYS);
  EXPECT_EQ(Call(t, SYS_ptrace).action, Action::kKill);
}

TEST(SeccompProfileTest, ArgumentRulesAreOredPerSyscallAndAndedWithin) {
  const PolicyTable t = Restricted(Host());
  EXPECT_EQ(Call(t, SYS_personality, 0).action, Action::kPassthrough);
  EXPECT_EQ(Call(t, SYS_personality, 8).action, Action::kPassthrough);
  EXPECT_EQ(Call(t, SYS_personality, 4).action, Action::kDeny);
  // CLONE_NEWUSER (0x10000000) is one of the masked namespace flags.
  EXPECT_EQ(Call(t, SYS_clone, 0x11).action, Action::kPassthrough);
  EXPECT_EQ(Call(t, SYS_clone, 0x10000011).action, Action::kDeny);
}

TEST(SeccompProfileTest, IncludesAndExcludesFollowTheGuestsCapsAndKernel) {
  const PolicyTable admin = Restricted(Host({"CAP_SYS_ADMIN"}));
  EXPECT_EQ(Call(admin, SYS_clone, 0x10000011).action, Action::kPassthrough);
  // minKernel 99.0: not this kernel.
  EXPECT_EQ(Call(admin, SYS_mount).action, Action::kDeny);
}

TEST(SeccompProfileTest, NeverLoosensSnaresOwnPolicy) {
  auto base = PolicyBuilder().Kill(SYS_getppid).Deny(SYS_read, EACCES).TryBuild();
  ASSERT_TRUE(base.has_value());
  auto profile = ParseSeccompProfile(kProfile, "p.json", Host());
  ASSERT_TRUE(profile.has_value());
  auto t = RestrictByProfile(*base, *profile);
  ASSERT_TRUE(t.has_value()) << t.error();
  EXPECT_EQ(Call(*t, SYS_getppid).action, Action::kKill);
  EXPECT_EQ(Call(*t, SYS_read).err, EACCES);
}

TEST(SeccompProfileTest, InPlaceDecidesAsACopy) {
  auto profile = ParseSeccompProfile(kProfile, "p.json", Host());
  ASSERT_TRUE(profile.has_value());
  auto base = PolicyBuilder()
                  .When(SYS_socket, {ArgEq(0, 1)}, {Action::kDeny, EPERM})
                  .Kill(SYS_getppid)
                  .TryBuild();
  ASSERT_TRUE(base.has_value());
  auto copy = RestrictByProfile(*base, *profile);
  ASSERT_TRUE(copy.has_value()) << copy.error();
  auto in_place = std::make_unique<PolicyTable>(*base);
  ASSERT_TRUE(RestrictByProfileInPlace(*profile, in_place.get()));
  EXPECT_EQ(in_place->rule_count, copy->rule_count);
  for (uint64_t nr : {SYS_read, SYS_getppid, SYS_socket, SYS_personality, SYS_mount}) {
    for (uint64_t a0 : {0ul, 1ul, 8ul, 0xfffffffful}) {
      EXPECT_EQ(Call(*in_place, nr, a0), Call(*copy, nr, a0));
    }
  }
}

TEST(SeccompProfileTest, ReportsUnknownNamesAsSkipped) {
  auto profile = ParseSeccompProfile(kProfile, "p.json", Host());
  ASSERT_TRUE(profile.has_value());
  ASSERT_EQ(profile->skipped_names.size(), 1u);
  EXPECT_EQ(profile->skipped_names[0], "not_a_syscall_anywhere");
}

TEST(SeccompProfileTest, DefaultErrnoRetAppliesToTheDefaultAction) {
  auto profile = ParseSeccompProfile(
      R"({"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38})", "p", Host());
  ASSERT_TRUE(profile.has_value()) << profile.error();
  EXPECT_EQ(profile->fallback.err, ENOSYS);
}

TEST(SeccompProfileTest, BadProfilesSayWhatAndWhere) {
  struct Case {
    const char* json;
    const char* error;
  } cases[] = {
      {"{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n \"syscalls\": [}",
       "p.json: not valid JSON: at line 2"},
      {R"({"syscalls": []})", "p.json: defaultAction: is missing"},
      {R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "X"}]})",
       "p.json: syscalls[0].action: unknown action 'X'"},
      {R"({"defaultAction": "SCMP_ACT_NOTIFY"})", "SCMP_ACT_NOTIFY (a seccomp agent)"},
      {R"({"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_AARCH64"]})",
       "p.json: architectures: does not include SCMP_ARCH_X86_64"},
      {R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"],
           "action": "SCMP_ACT_ALLOW", "args": [{"index": 6, "value": 1, "op": "SCMP_CMP_EQ"}]}]})",
       "p.json: syscalls[0].args[0].index: must be an argument index from 0 to 5"},
  };
  for (const Case& c : cases) {
    auto profile = ParseSeccompProfile(c.json, "p.json", Host());
    ASSERT_FALSE(profile.has_value()) << c.json;
    EXPECT_NE(profile.error().find(c.error), std::string::npos) << profile.error();
  }
}

}  // namespace
}  // namespace snare::policy
