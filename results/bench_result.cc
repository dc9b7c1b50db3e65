#include "results/bench_result.h"

#include <algorithm>
#include <limits>

namespace snare::results {

double Median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t n = values.size();
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), middle, values.end());
  const double upper = *middle;
  if (n % 2) return upper;
  // The lower middle value is the largest of the elements left of `middle`.
  const double lower = *std::max_element(values.begin(), middle);
  return lower + (upper - lower) / 2;
}

}  // namespace snare::results
