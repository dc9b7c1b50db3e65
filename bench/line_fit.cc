#include "bench/line_fit.h"

#include <array>
#include <cmath>
#include <limits>

namespace snare::bench {

double StudentT975(int dof) {
  static constexpr std::array<double, 30> kTable = {
      12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
      2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
      2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (dof < 1) return std::numeric_limits<double>::quiet_NaN();
  if (dof <= static_cast<int>(kTable.size())) return kTable[static_cast<size_t>(dof - 1)];
  // Cornish-Fisher expansion of t around the normal quantile (Abramowitz & Stegun 26.7.5).
  const double z = 1.959963984540054;
  const double n = dof, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
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

}  // namespace snare::bench
