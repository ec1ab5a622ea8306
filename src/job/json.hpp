#pragma once
// doc["job"] (schema/job.schema.json): the one place a JobResult is written, and read back
// (`tct report` of a saved document renders through the same functions as the live run).
#include <nlohmann/json.hpp>

#include "job/result.hpp"

namespace tct::job {

nlohmann::json to_json(const JobResult& r);
// Figures and decisions as written; each comparison's verdict decided again from its interval
// by the one rule (stats::decide).
JobResult from_json(const nlohmann::json& j);

}  // namespace tct::job
