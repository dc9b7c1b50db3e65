#include "kernel/lab/kernel_builder.h"

#include <gtest/gtest.h>

namespace snare::lab {
namespace {

constexpr const char* kDiff =
    "diff --git a/kernel/signal.c b/kernel/signal.c\n"
    "--- a/kernel/signal.c\n"
    "+++ b/kernel/signal.c\n"
    "@@ -1 +1 @@\n"
    "-a\n"
    "+b\n";

TEST(PatchDiffTest, IgnoresTheMessageAndTheSignature) {
  std::string one = std::string("From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\nWhy.\n") +
                    "Signed-off-by: A <a@example.org>\n---\n kernel/signal.c | 2 +-\n\n" + kDiff +
                    "-- \n2.39.5\n";
  std::string two = std::string("From 2 Mon Sep 17 00:00:00 2001\nSubject: [PATCH v2] y\n\n") +
                    "Reworded.\nSigned-off-by: B <b@example.org>\n---\n" + kDiff + "-- \n2.47.0\n";
  EXPECT_EQ(PatchDiff(one), kDiff);
  EXPECT_EQ(PatchDiff(two), kDiff);
}

TEST(PatchDiffTest, IgnoresBlobNames) {
  std::string with_index = std::string(kDiff).insert(std::string(kDiff).find("\n") + 1,
                                                     "index 32c464f94..f4c1435cb 100644\n");
  EXPECT_EQ(PatchDiff(with_index), kDiff);
}

TEST(PatchDiffTest, ABareDiffIsItself) {
  EXPECT_EQ(PatchDiff(kDiff), kDiff);
  EXPECT_EQ(PatchDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
            "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
}

TEST(PatchDiffTest, ADifferentChangeIsADifferentDiff) {
  std::string changed = kDiff;
  changed.back() = 'c';
  EXPECT_NE(PatchDiff("Subject: x\n---\n" + changed),
            PatchDiff(std::string("Subject: x\n---\n") + kDiff));
}

}  // namespace
}  // namespace snare::lab
