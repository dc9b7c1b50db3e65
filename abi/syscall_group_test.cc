#include "abi/syscall_group.h"

#include <asm/unistd_64.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "abi/syscall_table.h"
#include "gtest/gtest.h"

namespace snare::abi {
namespace {

std::set<std::string> Members(const char* group) {
  const SyscallGroup* g = FindSyscallGroup(group);
  if (!g) return {};
  std::set<std::string> out;
  for (int i = 0; i < g->count; ++i) out.insert(g->members[i]);
  return out;
}

TEST(SyscallGroupTest, EveryMemberIsASyscallInOneGroupOnly) {
  std::map<std::string, std::string> owner;
  std::set<std::string> names;
  ASSERT_GT(kSyscallGroupCount, 0);
  for (int i = 0; i < kSyscallGroupCount; ++i) {
    const SyscallGroup& g = kSyscallGroups[i];
    SCOPED_TRACE(g.name);
    EXPECT_TRUE(names.insert(g.name).second) << "two groups called " << g.name;
    EXPECT_GE(g.count, 2);
    EXPECT_LE(g.count, kMaxGroupMembers);
    EXPECT_NE(std::string(g.summary), "");
    for (int m = 0; m < g.count; ++m) {
      EXPECT_NE(FindSyscallByName(g.members[m]), nullptr) << g.members[m] << " is no syscall";
      auto [it, fresh] = owner.emplace(g.members[m], g.name);
      EXPECT_TRUE(fresh) << g.members[m] << " is in " << it->second << " and " << g.name;
    }
  }
}

TEST(SyscallGroupTest, FindsGroupsByName) {
  EXPECT_EQ(Members("file-open"),
            (std::set<std::string>{"open", "openat", "openat2", "creat", "open_by_handle_at"}));
  EXPECT_EQ(Members("mkdir"), (std::set<std::string>{"mkdir", "mkdirat"}));
  EXPECT_EQ(Members("unlink"), (std::set<std::string>{"unlink", "unlinkat", "rmdir"}));
  EXPECT_EQ(Members("exec"), (std::set<std::string>{"execve", "execveat"}));
  EXPECT_EQ(Members("fork"), (std::set<std::string>{"fork", "vfork", "clone", "clone3"}));
  EXPECT_EQ(FindSyscallGroup("@mkdir"), nullptr);  // the '@' is the rule's spelling
  EXPECT_EQ(FindSyscallGroup("nosuchgroup"), nullptr);
  EXPECT_EQ(FindSyscallGroup(nullptr), nullptr);
}

TEST(SyscallGroupTest, GroupOfEachMember) {
  for (int nr : {__NR_open, __NR_openat, __NR_openat2, __NR_creat, __NR_open_by_handle_at}) {
    const SyscallGroup* g = GroupOfSyscall(nr);
    ASSERT_NE(g, nullptr) << nr;
    EXPECT_STREQ(g->name, "file-open");
  }
  ASSERT_NE(GroupOfSyscall(__NR_mkdirat), nullptr);
  EXPECT_STREQ(GroupOfSyscall(__NR_mkdirat)->name, "mkdir");
  ASSERT_NE(GroupOfSyscall(__NR_rmdir), nullptr);
  EXPECT_STREQ(GroupOfSyscall(__NR_rmdir)->name, "unlink");
  // Calls without aliases, and numbers that are no syscall.
  EXPECT_EQ(GroupOfSyscall(__NR_getppid), nullptr);
  EXPECT_EQ(GroupOfSyscall(__NR_ptrace), nullptr);
  EXPECT_EQ(GroupOfSyscall(400), nullptr);
  EXPECT_EQ(GroupOfSyscall(100000), nullptr);
}

}  // namespace
}  // namespace snare::abi
