#pragma once
// ProbeResult <-> doc["probe"] (schema/probe.schema.json): the one place the section is
// written and read. to_json(from_json(section)) gives back a section this version wrote;
// from_json never throws on a missing or mistyped field.
#include <nlohmann/json.hpp>

#include "probe/result.hpp"

namespace tct::probe {

nlohmann::json to_json(const ProbeResult& result);
ProbeResult from_json(const nlohmann::json& section);

// One smoke compile as the agent reported it, with match added.
nlohmann::json to_json(const Smoke& smoke);
Smoke smoke_from_json(const nlohmann::json& smoke);

}  // namespace tct::probe
