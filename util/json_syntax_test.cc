#include "util/json_syntax.h"

#include <gtest/gtest.h>

namespace snare::util {
namespace {

TEST(JsonSyntaxErrorTest, SaysWhere) {
  const std::string e = JsonSyntaxError("{\n  \"a\": 1,\n  ]");
  EXPECT_EQ(e.rfind("at line 3, column 3", 0), 0u) << e;
}

}  // namespace
}  // namespace snare::util
