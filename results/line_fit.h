// Ordinary least-squares fit of a straight line y = slope * x + intercept, with the 95%
// confidence interval of the slope (Student's t with n - 2 degrees of freedom). `snare
// report` uses it for the per-level cost of nesting user namespaces (the depth suite).
#ifndef SNARE_RESULTS_LINE_FIT_H_
#define SNARE_RESULTS_LINE_FIT_H_

#include <expected>
#include <string>
#include <vector>

namespace snare::results {

struct LineFit {
  double slope = 0;
  double intercept = 0;
  // Half-width of the 95% confidence interval: the true slope lies in
  // [slope - slope_ci95, slope + slope_ci95] with 95% confidence. NaN when there are only
  // two points (no degrees of freedom left to estimate the scatter); 0 for an exact line.
  double slope_ci95 = 0;
  int points = 0;
};

// Fails when xs and ys differ in size, hold fewer than two points, hold a value that is
// not finite, or when all xs are equal (the slope is undefined).
std::expected<LineFit, std::string> FitLine(const std::vector<double>& xs,
                                            const std::vector<double>& ys);

// The 0.975 quantile of Student's t distribution with `dof` >= 1 degrees of freedom
// (Boost.Math's students_t); NaN when `dof` < 1.
double StudentT975(int dof);

}  // namespace snare::results

#endif  // SNARE_RESULTS_LINE_FIT_H_
