#pragma once
// RunResult <-> doc["run"] (schema/run.schema.json): to_json is the one place the section is
// written, from_json the one place it is read back, so a saved document (`tct report`) renders
// as the live run did. Durations are integer nanoseconds (fields end in _ns), ratios plain numbers.
#include <nlohmann/json.hpp>

#include "run/result.hpp"

namespace tct::run {

nlohmann::json to_json(const RunResult& r);

// Never throws: a field a document lacks keeps its default. Verdicts are decided again from
// each interval by the one rule (stats::decide), so documents of any version read alike; a
// document written before a site's "fallbacks" list reads its one "fallback" as the site's
// own frame's.
RunResult from_json(const nlohmann::json& section);

}  // namespace tct::run
