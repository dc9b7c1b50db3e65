// RenderJson: the whole run as one JSON object.
#include <nlohmann/json.hpp>

#include "bench/report.h"

namespace snare::bench {
namespace {

using results::BenchRow;
using results::BenchRun;

using Json = nlohmann::json;

Json RowJson(const BenchRow& row) {
  Json params = Json::object();
  for (const auto& [key, value] : row.params) params[key] = value;
  return {{"suite", row.suite}, {"name", row.name}, {"platform", row.platform}, {"params", params},
          {"value", row.value}, {"unit", row.unit}, {"samples", row.samples}};
}

Json RunJson(const BenchRun& run) {
  Json rows = Json::array();
  for (const auto& row : run.rows) rows.push_back(RowJson(row));
  return {{"id", run.id},
          {"started_at", run.started_at},
          {"kernel", run.kernel},
          {"kernel_variant", run.kernel_variant},
          {"cpu_model", run.cpu_model},
          {"cores", run.cores},
          {"revision", run.revision},
          {"command", run.command},
          {"quick", run.quick},
          {"duration_s", run.duration_s},
          {"rows", rows}};
}

}  // namespace

std::string RenderJson(const BenchRun& run) {
  return RunJson(run).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace snare::bench
