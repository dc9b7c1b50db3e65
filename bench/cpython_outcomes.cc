#include "bench/cpython_outcomes.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/subprocess.h"

namespace snare::bench {
namespace {

// regrtest writes one <testcase name=ID> per test, with a <failure>, <error> or <skipped>
// child when it did not pass (an expected failure has an <output> child).
constexpr const char* kJunitReader = R"py(
import json, sys, xml.etree.ElementTree as ET
out = {"passed": [], "failed": [], "skipped": []}
unnamed = 0
for case in ET.parse(sys.argv[1]).iter("testcase"):
    name = case.get("name")
    kinds = {child.tag for child in case}
    if name is None:
        unnamed += 1
        out["failed"].append("(unnamed %d)" % unnamed)
    elif kinds & {"failure", "error"}:
        out["failed"].append(name)
    elif "skipped" in kinds:
        out["skipped"].append(name)
    else:
        out["passed"].append(name)
print(json.dumps(out))
)py";

}  // namespace

std::expected<TestOutcomes, std::string> ReadJunitOutcomes(const std::string& python,
                                                           const std::string& xml_path) {
  util::SubprocessResult r = util::RunSubprocess({python, "-c", kJunitReader, xml_path});
  if (r.status != 0) {
    return std::unexpected("cannot read the junit XML " + xml_path + ": " +
                           (r.start_error.empty() ? r.stderr_data : r.start_error));
  }
  const nlohmann::json j = nlohmann::json::parse(r.stdout_data, nullptr, false);
  if (j.is_discarded()) return std::unexpected("unreadable outcomes of " + xml_path);
  TestOutcomes outcomes;
  for (const auto& name : j["passed"]) outcomes.passed.insert(name.get<std::string>());
  for (const auto& name : j["failed"]) outcomes.failed.insert(name.get<std::string>());
  for (const auto& name : j["skipped"]) outcomes.skipped.insert(name.get<std::string>());
  return outcomes;
}

std::vector<std::string> LostTests(const TestOutcomes& native, const TestOutcomes& other) {
  std::vector<std::string> lost;
  std::set_difference(native.passed.begin(), native.passed.end(), other.passed.begin(),
                      other.passed.end(), std::back_inserter(lost));
  return lost;
}

}  // namespace snare::bench
