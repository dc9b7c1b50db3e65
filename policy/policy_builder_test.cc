#include "policy/policy_builder.h"

#include <asm/unistd_64.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

#include "gtest/gtest.h"
#include "policy/evaluator.h"

namespace snare::policy {
namespace {

TEST(PolicyBuilderTest, EverySyscallStartsAsPassthroughAndGapsAreEnosys) {
  auto table = PolicyBuilder().TryBuild();
  ASSERT_TRUE(table) << table.error();
  const uint64_t args[6] = {};
  EXPECT_EQ(Evaluate(*table, __NR_read, args), (Disposition{Action::kPassthrough, 0}));
  EXPECT_EQ(Evaluate(*table, __NR_ptrace, args), (Disposition{Action::kPassthrough, 0}));
  EXPECT_EQ(Evaluate(*table, 400, args), (Disposition{Action::kDeny, ENOSYS}));
  EXPECT_EQ(Evaluate(*table, 1u << 20, args), (Disposition{Action::kDeny, ENOSYS}));
  EXPECT_EQ(table->entries[400].fallback, (Disposition{Action::kDeny, ENOSYS}));
}

TEST(PolicyBuilderTest, LaterCallsReplaceTheFallback) {
  auto table = PolicyBuilder().Kill(__NR_getppid).Deny(__NR_getppid, EACCES).TryBuild();
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->entries[__NR_getppid].fallback, (Disposition{Action::kDeny, EACCES}));
}

TEST(PolicyBuilderTest, SetAllThenSpecific) {
  auto table = PolicyBuilder().SetAll({Action::kKill, 0}).Passthrough(__NR_exit_group).TryBuild();
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->entries[__NR_read].fallback.action, Action::kKill);
  EXPECT_EQ(table->entries[__NR_exit_group].fallback.action, Action::kPassthrough);
  EXPECT_EQ(table->entries[400].fallback, (Disposition{Action::kDeny, ENOSYS}));
}

TEST(PolicyBuilderTest, ByName) {
  auto table = PolicyBuilder().DenyByName("openat", EACCES).TryBuild();
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->entries[__NR_openat].fallback, (Disposition{Action::kDeny, EACCES}));
}

// BuildInto over a table that held another policy leaves nothing of it that a reader sees,
// and a copy carries every rule the evaluator reads.
TEST(PolicyBuilderTest, BuildIntoATableInUseAndACopyDecideAsTryBuild) {
  auto big = std::make_unique<PolicyTable>();
  PolicyBuilder old;
  for (uint32_t i = 0; i < 40; ++i) {
    old.When(__NR_openat, {ArgEq(2, i), ArgEq(1, i), ArgEq(0, i)}, {Action::kKill, 0});
  }
  ASSERT_TRUE(old.Deny(__NR_read, EPERM).BuildInto(big.get()));
  ASSERT_EQ(big->rule_count, 40u);

  PolicyBuilder b;
  b.When(__NR_mmap, {ArgEq(2, 7)}, {Action::kDeny, EACCES}).Deny(__NR_getppid, ENOSYS);
  ASSERT_TRUE(b.BuildInto(big.get()));
  auto fresh = b.TryBuild();
  ASSERT_TRUE(fresh) << fresh.error();
  auto copied = std::make_unique<PolicyTable>(*big);
  for (const PolicyTable* t : {big.get(), copied.get()}) {
    EXPECT_EQ(t->rule_count, 1u);
    for (uint64_t a : {0ul, 1ul, 7ul}) {
      for (uint64_t nr : {__NR_openat, __NR_read, __NR_mmap, __NR_getppid}) {
        const uint64_t args[6] = {a, a, a, a, a, a};
        EXPECT_EQ(Evaluate(*t, nr, args), Evaluate(*fresh, nr, args)) << nr << " " << a;
      }
    }
  }
}

// Making or copying a table writes its entries and the rules in use, nothing past them: the
// ~78 KB of unused rules are never touched, so they cost no page faults.
TEST(PolicyBuilderTest, TablesMadeOrCopiedLeaveTheUnusedRulesUntouched) {
  auto table = PolicyBuilder().When(__NR_mmap, {ArgEq(2, 7)}, {Action::kDeny, EACCES}).TryBuild();
  ASSERT_TRUE(table) << table.error();
  ASSERT_EQ(table->rule_count, 1u);
  auto storage = std::make_unique<unsigned char[]>(sizeof(PolicyTable));
  const size_t unused = offsetof(PolicyTable, rules) + sizeof(ArgRule);
  const auto untouched = [&] {
    for (size_t i = unused; i < sizeof(PolicyTable); ++i) {
      if (storage[i] != 0xab) return false;
    }
    return true;
  };
  std::memset(storage.get(), 0xab, sizeof(PolicyTable));
  // GCC drops stores made just before a constructor runs over them (lifetime DSE) unless
  // something may read them.
  asm volatile("" : : "r"(storage.get()) : "memory");
  PolicyTable* made = new (storage.get()) PolicyTable;
  EXPECT_TRUE(untouched());
  made->~PolicyTable();
  PolicyTable* copied = new (storage.get()) PolicyTable(*table);
  EXPECT_TRUE(untouched());
  EXPECT_EQ(copied->rules[0].count, 1);
  *copied = *table;
  EXPECT_TRUE(untouched());
  copied->~PolicyTable();
}

// The first error is kept and reported; later calls do not hide it.
TEST(PolicyBuilderTest, ErrorsAreCollectedAndReportedByTryBuild) {
  PolicyBuilder b;
  b.DenyByName("opn", EACCES).Kill(__NR_read).Deny(400, EPERM);
  auto table = b.TryBuild();
  ASSERT_FALSE(table);
  EXPECT_NE(table.error().find("unknown syscall 'opn'"), std::string::npos) << table.error();

  struct Case {
    PolicyBuilder builder;
    const char* message;
  } cases[] = {
      {PolicyBuilder().Deny(400, EPERM), "400 is not an x86-64 syscall"},
      {PolicyBuilder().Deny(__NR_read, 0), "needs an errno"},
      {PolicyBuilder().Deny(__NR_read, 5000), "needs an errno"},
      {PolicyBuilder().When(__NR_close, {}, {Action::kKill, 0}), "1 to 6 argument checks"},
      {PolicyBuilder().When(__NR_close,
                            {ArgEq(0, 1), ArgEq(1, 1), ArgEq(2, 1), ArgEq(3, 1), ArgEq(4, 1),
                             ArgEq(5, 1), ArgEq(0, 2)},
                            {Action::kKill, 0}),
       "1 to 6 argument checks"},
      {PolicyBuilder().WhenFirst(__NR_close, {}, {Action::kKill, 0}), "1 to 6 argument checks"},
      {PolicyBuilder().When(__NR_close, {ArgEq(6, 1)}, {Action::kKill, 0}), "argument 6"},
      {PolicyBuilder().WhenFirst(__NR_close, {ArgEq(6, 1)}, {Action::kKill, 0}), "argument 6"},
      {PolicyBuilder().When(__NR_close, {ArgEq(0, 1)}, {Action::kDeny, 0}), "needs an errno"},
      {PolicyBuilder().When(400, {ArgEq(0, 1)}, {Action::kKill, 0}), "not an x86-64 syscall"},
  };
  for (const Case& c : cases) {
    auto t = c.builder.TryBuild();
    ASSERT_FALSE(t) << c.message;
    EXPECT_NE(t.error().find(c.message), std::string::npos) << t.error();
  }
}

TEST(PolicyBuilderTest, TooManyRules) {
  PolicyBuilder b;
  for (int i = 0; i <= kMaxArgRules; ++i) {
    b.When(__NR_close, {ArgEq(0, static_cast<uint64_t>(i))}, {Action::kKill, 0});
  }
  auto table = b.TryBuild();
  ASSERT_FALSE(table);
  EXPECT_NE(table.error().find("more than the 512"), std::string::npos) << table.error();
}

// What the libseccomp-based compiler made the builder refuse is fine now: several checks on
// one argument, rules with different dispositions, order comparisons in several rules.
TEST(PolicyBuilderTest, RulesLibseccompCouldNotCompile) {
  auto table = PolicyBuilder()
                   .When(__NR_close, {ArgGe(0, 1), ArgLe(0, 5)}, {Action::kKill, 0})
                   .When(__NR_close, {ArgLe(0, 9), ArgEq(1, 2)}, {Action::kDeny, EPERM})
                   .When(__NR_close,
                         {ArgGe(0, 100), ArgLe(0, 200), ArgNe(0, 150), ArgEq(1, 0), ArgEq(2, 0),
                          ArgMaskedEq(3, 0xff, 0)},
                         {Action::kNotify, 0})
                   .TryBuild();
  ASSERT_TRUE(table) << table.error();
  ASSERT_EQ(table->entries[__NR_close].rule_count, 3);
  EXPECT_EQ(table->rules[table->entries[__NR_close].first_rule + 2].count, 6);
  uint64_t a[6] = {3, 2};
  EXPECT_EQ(Evaluate(*table, __NR_close, a).action, Action::kKill);
  a[0] = 7;
  EXPECT_EQ(Evaluate(*table, __NR_close, a), (Disposition{Action::kDeny, EPERM}));
  a[1] = 0;
  a[0] = 120;
  EXPECT_EQ(Evaluate(*table, __NR_close, a).action, Action::kNotify);
  a[0] = 150;
  EXPECT_EQ(Evaluate(*table, __NR_close, a).action, Action::kPassthrough);
}

// The first matching rule decides, in the order of the When calls.
TEST(PolicyBuilderTest, FirstMatchInOrder) {
  auto table = PolicyBuilder()
                   .Kill(__NR_socket)
                   .When(__NR_socket, {ArgEq(0, 1), ArgEq(1, 5)}, {Action::kDeny, EACCES})
                   .When(__NR_socket, {ArgEq(0, 1)}, {Action::kPassthrough, 0})
                   .TryBuild();
  ASSERT_TRUE(table) << table.error();
  uint64_t unix_seqpacket[6] = {1, 5}, unix_stream[6] = {1, 1}, inet[6] = {2, 1};
  EXPECT_EQ(Evaluate(*table, __NR_socket, unix_seqpacket), (Disposition{Action::kDeny, EACCES}));
  EXPECT_EQ(Evaluate(*table, __NR_socket, unix_stream).action, Action::kPassthrough);
  EXPECT_EQ(Evaluate(*table, __NR_socket, inet).action, Action::kKill);

  // The other way round the broader rule wins.
  table = PolicyBuilder()
              .Kill(__NR_socket)
              .When(__NR_socket, {ArgEq(0, 1)}, {Action::kPassthrough, 0})
              .When(__NR_socket, {ArgEq(0, 1), ArgEq(1, 5)}, {Action::kDeny, EACCES})
              .TryBuild();
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(Evaluate(*table, __NR_socket, unix_seqpacket).action, Action::kPassthrough);
}

// WhenFirst goes before the syscall's rules so far (the latest WhenFirst first), When after
// them; rules of other syscalls in between do not matter.
TEST(PolicyBuilderTest, WhenFirstGoesBeforeTheOthers) {
  auto table = PolicyBuilder()
                   .When(__NR_kill, {ArgEq(0, 1)}, {Action::kDeny, 1})
                   .When(__NR_dup, {ArgEq(0, 1)}, {Action::kKill, 0})
                   .WhenFirst(__NR_kill, {ArgEq(0, 1)}, {Action::kDeny, 2})
                   .When(__NR_kill, {ArgEq(0, 1)}, {Action::kDeny, 3})
                   .WhenFirst(__NR_dup, {ArgEq(0, 1)}, {Action::kBroker, 0})
                   .WhenFirst(__NR_kill, {ArgEq(0, 1)}, {Action::kDeny, 4})
                   .TryBuild();
  ASSERT_TRUE(table) << table.error();
  const SyscallEntry& kill = table->entries[__NR_kill];
  ASSERT_EQ(kill.rule_count, 4);
  const uint16_t order[] = {4, 2, 1, 3};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(table->rules[kill.first_rule + i].disposition, (Disposition{Action::kDeny, order[i]}))
        << i;
  }
  uint64_t a[6] = {1};
  EXPECT_EQ(Evaluate(*table, __NR_kill, a), (Disposition{Action::kDeny, 4}));
  EXPECT_EQ(Evaluate(*table, __NR_dup, a).action, Action::kBroker);
  EXPECT_EQ(table->entries[__NR_dup].rule_count, 2);
}

// Rules are grouped per syscall whatever the order they were added in.
TEST(PolicyBuilderTest, RulesOfInterleavedSyscalls) {
  auto table = PolicyBuilder()
                   .When(__NR_close, {ArgEq(0, 1)}, {Action::kKill, 0})
                   .When(__NR_dup, {ArgEq(0, 2)}, {Action::kDeny, EBADF})
                   .When(__NR_close, {ArgEq(0, 3)}, {Action::kKill, 0})
                   .TryBuild();
  ASSERT_TRUE(table) << table.error();
  uint64_t a1[6] = {1}, a2[6] = {2}, a3[6] = {3};
  EXPECT_EQ(Evaluate(*table, __NR_close, a1).action, Action::kKill);
  EXPECT_EQ(Evaluate(*table, __NR_close, a3).action, Action::kKill);
  EXPECT_EQ(Evaluate(*table, __NR_close, a2).action, Action::kPassthrough);
  EXPECT_EQ(Evaluate(*table, __NR_dup, a2), (Disposition{Action::kDeny, EBADF}));
  EXPECT_EQ(Evaluate(*table, __NR_dup, a1).action, Action::kPassthrough);
  EXPECT_EQ(table->entries[__NR_close].rule_count, 2);
  EXPECT_EQ(table->entries[__NR_dup].rule_count, 1);
  EXPECT_EQ(table->rules[table->entries[__NR_dup].first_rule].disposition,
            (Disposition{Action::kDeny, EBADF}));
}

}  // namespace
}  // namespace snare::policy
