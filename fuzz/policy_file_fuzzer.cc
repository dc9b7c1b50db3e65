// `snare run --policy FILE`: the policy file's JSON, and the syntax check that locates its
// errors. Bad input must come back as an error, never a crash, a hang or an exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sandbox/policy_file.h"
#include "util/json_syntax.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Relative sources resolve against a folder that holds nothing to read.
  auto options = snare::sandbox::ParsePolicyFile(text, "policy.json", "/nonexistent");
  if (!options && options.error().empty()) __builtin_trap();  // an error must say what
  (void)snare::util::JsonSyntaxError(text);
  return 0;
}
