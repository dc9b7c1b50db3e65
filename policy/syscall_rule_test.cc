#include "policy/syscall_rule.h"

#include <asm/unistd_64.h>

#include <cerrno>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace snare::policy {
namespace {

using Nrs = std::vector<uint32_t>;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string ErrorOf(std::string_view spec, Action action = Action::kDeny) {
  auto rule = ParseSyscallRule(spec, action, "--deny");
  if (rule) {
    ADD_FAILURE() << spec << " parsed";
    return "";
  }
  return rule.error();
}

TEST(SyscallRuleTest, ASyscallStandsForItsGroup) {
  auto rule = ParseSyscallRule("mkdir", Action::kKill, "--kill");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->nrs, (Nrs{__NR_mkdir, __NR_mkdirat}));
  EXPECT_EQ(rule->disposition, (Disposition{Action::kKill, 0}));
  EXPECT_EQ(rule->spec, "mkdir");

  rule = ParseSyscallRule("openat:EACCES", Action::kDeny, "--deny");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->nrs,
            (Nrs{__NR_open, __NR_creat, __NR_openat, __NR_open_by_handle_at, __NR_openat2}));
  EXPECT_EQ(rule->disposition, (Disposition{Action::kDeny, EACCES}));
}

TEST(SyscallRuleTest, AGroupByName) {
  auto rule = ParseSyscallRule("@file-open", Action::kDeny, "--deny");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->nrs,
            (Nrs{__NR_open, __NR_creat, __NR_openat, __NR_open_by_handle_at, __NR_openat2}));
  EXPECT_EQ(rule->disposition, (Disposition{Action::kDeny, EPERM}));

  rule = ParseSyscallRule("@unlink:13", Action::kDeny, "--deny");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->nrs, (Nrs{__NR_rmdir, __NR_unlink, __NR_unlinkat}));
  EXPECT_EQ(rule->disposition.err, EACCES);
}

TEST(SyscallRuleTest, ASyscallWithoutAliasesIsItself) {
  auto rule = ParseSyscallRule("getppid:4095", Action::kDeny, "--deny");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->nrs, (Nrs{__NR_getppid}));
  EXPECT_EQ(rule->disposition.err, 4095);
}

TEST(SyscallRuleTest, UnknownNamesSuggestTheClosest) {
  std::string err = ErrorOf("mkdri");
  EXPECT_TRUE(Contains(err, "unknown syscall 'mkdri'")) << err;
  EXPECT_TRUE(Contains(err, "did you mean mkdir?")) << err;
  EXPECT_TRUE(Contains(err, "--list-groups")) << err;

  err = ErrorOf("@fileopen");
  EXPECT_TRUE(Contains(err, "unknown syscall group '@fileopen'")) << err;
  EXPECT_TRUE(Contains(err, "did you mean @file-open?")) << err;

  err = ErrorOf("@openat");
  EXPECT_TRUE(Contains(err, "openat is a syscall")) << err;

  err = ErrorOf("xyzzyplugh");
  EXPECT_TRUE(Contains(err, "unknown syscall 'xyzzyplugh'")) << err;
  EXPECT_FALSE(Contains(err, "did you mean")) << err;

  err = ErrorOf("");
  EXPECT_TRUE(Contains(err, "needs a syscall")) << err;
  err = ErrorOf(":EPERM");
  EXPECT_TRUE(Contains(err, "needs a syscall")) << err;
}

TEST(SyscallRuleTest, BadErrnos) {
  for (const char* bad : {"EBOGUS", "0", "-1", "4096", "13x", "0x0d", "+5", " 5"}) {
    SCOPED_TRACE(bad);
    std::string err = ErrorOf(std::string("getppid:") + bad);
    EXPECT_TRUE(Contains(err, "unknown errno")) << err;
    EXPECT_TRUE(Contains(err, bad)) << err;
  }
  std::string err = ErrorOf("getppid:");
  EXPECT_TRUE(Contains(err, "missing errno")) << err;
}

TEST(SyscallRuleTest, KillTakesNoErrno) {
  auto rule = ParseSyscallRule("ptrace:EPERM", Action::kKill, "--kill");
  ASSERT_FALSE(rule);
  EXPECT_TRUE(Contains(rule.error(), "--kill takes no errno")) << rule.error();
}

TEST(SyscallRuleTest, AppliesToEveryMember) {
  PolicyBuilder builder;
  auto rule = ParseSyscallRule("stat:ENOENT", Action::kDeny, "--deny");
  ASSERT_TRUE(rule) << rule.error();
  ApplySyscallRule(*rule, &builder);
  auto table = builder.TryBuild();
  ASSERT_TRUE(table) << table.error();
  for (int nr : {__NR_stat, __NR_lstat, __NR_fstat, __NR_newfstatat, __NR_statx}) {
    EXPECT_EQ(table->entries[nr].fallback, (Disposition{Action::kDeny, ENOENT})) << nr;
  }
  EXPECT_EQ(table->entries[__NR_getppid].fallback.action, Action::kPassthrough);
}

TEST(SyscallRuleTest, NotifyCoversTheGroupAndRefusesWhatTheStubRewrites) {
  auto rule = ParseSyscallRule("openat", Action::kNotify, "--notify");
  ASSERT_TRUE(rule) << rule.error();
  EXPECT_EQ(rule->disposition.action, Action::kNotify);
  EXPECT_EQ(rule->nrs,
            (Nrs{__NR_open, __NR_creat, __NR_openat, __NR_open_by_handle_at, __NR_openat2}));
  auto with_errno = ParseSyscallRule("openat:EACCES", Action::kNotify, "--notify");
  ASSERT_FALSE(with_errno);
  EXPECT_TRUE(Contains(with_errno.error(), "takes no errno")) << with_errno.error();
  for (const char* name : {"clone", "@fork", "rt_sigaction", "execve", "exit_group"}) {
    auto refused = ParseSyscallRule(name, Action::kNotify, "--notify");
    ASSERT_FALSE(refused) << name;
    EXPECT_TRUE(Contains(refused.error(), "cannot take the notification path")) << refused.error();
  }
}

TEST(SyscallRuleTest, ListingNamesEveryGroup) {
  const std::string listing = SyscallGroupListing();
  EXPECT_TRUE(Contains(listing, "@file-open")) << listing;
  EXPECT_TRUE(Contains(listing, " open openat openat2 creat open_by_handle_at\n")) << listing;
  EXPECT_TRUE(Contains(listing, "@mkdir")) << listing;
}

}  // namespace
}  // namespace snare::policy
