#include "results/line_fit.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace snare::results {

double StudentT975(int dof) {
  // Checked first: dof >= 1 is inside the distribution's domain, so Boost's default error
  // policy (which throws) has nothing to report.
  if (dof < 1) return std::numeric_limits<double>::quiet_NaN();
  return boost::math::quantile(boost::math::students_t(dof), 0.975);
}

std::expected<LineFit, std::string> FitLine(const std::vector<double>& xs,
                                            const std::vector<double>& ys) {
  if (xs.size() != ys.size()) {
    return std::unexpected("line fit: " + std::to_string(xs.size()) + " x values but " +
                           std::to_string(ys.size()) + " y values");
  }
  const size_t n = xs.size();
  if (n < 2) {
    return std::unexpected("line fit: need at least 2 points, got " + std::to_string(n));
  }
  double mean_x = 0, mean_y = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) {
      return std::unexpected("line fit: point " + std::to_string(i + 1) + " is not finite");
    }
    mean_x += xs[i];
    mean_y += ys[i];
  }
  mean_x /= static_cast<double>(n);
  mean_y /= static_cast<double>(n);
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (xs[i] - mean_x) * (xs[i] - mean_x);
    sxy += (xs[i] - mean_x) * (ys[i] - mean_y);
  }
  if (sxx == 0) return std::unexpected("line fit: all x values are equal; the slope is undefined");

  LineFit fit;
  fit.points = static_cast<int>(n);
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  if (n == 2) {
    fit.slope_ci95 = std::numeric_limits<double>::quiet_NaN();
    return fit;
  }
  double ssr = 0;  // residual sum of squares
  for (size_t i = 0; i < n; ++i) {
    const double r = ys[i] - (fit.slope * xs[i] + fit.intercept);
    ssr += r * r;
  }
  const int dof = static_cast<int>(n) - 2;
  const double slope_se = std::sqrt(ssr / dof / sxx);
  fit.slope_ci95 = StudentT975(dof) * slope_se;
  return fit;
}

}  // namespace snare::results
