#pragma once
// A row's breakdown as doc["bench"]["rows"][i]["breakdown"] (schema/bench.schema.json,
// CallBreakdown in node/index.d.ts), and back from a saved document.
#include <nlohmann/json.hpp>

#include "bench/breakdown.hpp"

namespace tct::bench {

nlohmann::json to_json(const CallBreakdown& b);
CallBreakdown breakdown_from_json(const nlohmann::json& j);

}  // namespace tct::bench
