#pragma once
// RunResult -> doc["run"]: the one place its JSON is made (schema/run.schema.json).
// Durations are integer nanoseconds (fields end in _ns), ratios plain numbers.
#include <nlohmann/json.hpp>

#include "run/result.hpp"

namespace tct::run {

nlohmann::json to_json(const RunResult& r);

}  // namespace tct::run
