#include <fstream>

#include "bench/suites.h"

namespace snare::bench {

// The sentry's peak RSS serving `threads` guest threads at once, minus serving one, per
// extra thread.
void AddMemorySuite(BenchContext& context, std::vector<BenchStep>* steps) {
  const int threads = 200;
  const std::string stats = context.ScratchDir() + "/memory-stats.json";
  auto peak = [&context, stats](int n) -> std::expected<double, std::string> {
    auto j = BenchContext::RunJson(
        context.UnderSnare("systrap", {"--stats=json", "--stats-file=" + stats},
                           context.Workload({"threads", std::to_string(n)})));
    if (!j) return std::unexpected("threads guest failed: " + j.error());
    std::ifstream in(stats);
    auto s = nlohmann::json::parse(in, nullptr, false);
    if (s.is_discarded() || !s.contains("sentry")) {
      return std::unexpected(std::string("snare wrote no readable stats file"));
    }
    return s["sentry"]["peak_rss_kb"].get<double>() * 1024;
  };
  BenchStep step;
  step.label = "memory per guest thread (" + std::to_string(threads) + " threads)";
  step.measure = [peak]() -> std::expected<std::vector<double>, std::string> {
    auto one = peak(1);
    if (!one) return std::unexpected(one.error());
    auto many = peak(threads);
    if (!many) return std::unexpected(many.error());
    return std::vector<double>{(*many - *one) / (threads - 1)};
  };
  step.row = {"memory",  "sentry-bytes-per-guest-thread",
              "systrap", {{"threads", std::to_string(threads)}},
              0,         "bytes",
              {}};
  steps->push_back(std::move(step));
}

}  // namespace snare::bench
