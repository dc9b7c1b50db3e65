// The per-test outcomes of one module of CPython's regression suite, read from the
// --junit-xml file of `python3.11 -m test`, and the tests a run lost against the native run.
#ifndef SNARE_BENCH_CPYTHON_OUTCOMES_H_
#define SNARE_BENCH_CPYTHON_OUTCOMES_H_

#include <expected>
#include <set>
#include <string>
#include <vector>

namespace snare::bench {

struct TestOutcomes {
  std::set<std::string> passed;  // successes and expected failures
  // Failures and errors. regrtest leaves a test whose subtests failed (or that succeeded
  // unexpectedly) without a name; those count here as "(unnamed N)".
  std::set<std::string> failed;
  std::set<std::string> skipped;
};

// Reads regrtest's junit XML with `python` (its ElementTree parser).
std::expected<TestOutcomes, std::string> ReadJunitOutcomes(const std::string& python,
                                                           const std::string& xml_path);

// The tests `native` passed that `other` did not pass, sorted.
std::vector<std::string> LostTests(const TestOutcomes& native, const TestOutcomes& other);

}  // namespace snare::bench

#endif  // SNARE_BENCH_CPYTHON_OUTCOMES_H_
