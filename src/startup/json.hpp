#pragma once
// StartupResult <-> doc["startup"] (schema/startup.schema.json): the one place the section
// is written and read; from_json never throws on a missing or mistyped field.
#include <nlohmann/json.hpp>

#include "startup/result.hpp"

namespace tct::startup {

nlohmann::json to_json(const StartupResult& result);
StartupResult from_json(const nlohmann::json& section);

// torch's cache counters as the agent and the section name them (fxgraph_cache_hit, ...).
CacheCounters counters_from_json(const nlohmann::json& counters);

}  // namespace tct::startup
