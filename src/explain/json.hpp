#pragma once
// ExplainResult <-> doc["explain"] (schema/explain.schema.json): the one place the section
// is written and read. to_json(from_json(section)) gives back a section this version wrote;
// from_json also reads older documents of the same schema (fields added since are absent
// there, see result.hpp) and never throws on a missing or mistyped field.
#include <nlohmann/json.hpp>

#include "explain/result.hpp"

namespace tct::explain {

nlohmann::json to_json(const ExplainResult& result);
ExplainResult from_json(const nlohmann::json& section);

// The parts a rendering shows as JSON (the HTML report's generic tables).
nlohmann::json to_json(const Frame& frame);
nlohmann::json to_json(const SkippedFrame& frame);                  // also what expect's compiled_run lists
SkippedFrame skipped_frame_from_json(const nlohmann::json& frame);  // and how expect reads it back
nlohmann::json to_json(const Recompile& recompile);
nlohmann::json to_json(const Disagreement& disagreement);
Frame frame_from_json(const nlohmann::json& frame);

}  // namespace tct::explain
