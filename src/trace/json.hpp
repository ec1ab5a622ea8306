#pragma once
// TraceResult <-> doc["trace"] (schema/trace.schema.json): the one place the section is
// written and read. to_json(from_json(section)) gives back a section this version wrote;
// from_json never throws on a missing or mistyped field (a saved document may be older, or
// edited by hand).
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/result.hpp"

namespace tct::trace {

nlohmann::json to_json(const TraceResult& result);
TraceResult from_json(const nlohmann::json& section);

// Each part, and a list of parts (the HTML report shows some as generic tables).
nlohmann::json to_json(const Compile& compile);
nlohmann::json to_json(const BreakGroup& group);
nlohmann::json to_json(const Restart& restart);
nlohmann::json to_json(const Recompile& recompile);
nlohmann::json to_json(const SkippedFrame& frame);
nlohmann::json to_json(const CompileWithoutId& compile);
nlohmann::json to_json(const Failure& failure);
nlohmann::json to_json(const ReadStats& read);
nlohmann::json to_json(const Spot& spot);

template <class T>
nlohmann::json to_json_list(const std::vector<T>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& x : items) out.push_back(to_json(x));
  return out;
}

}  // namespace tct::trace
