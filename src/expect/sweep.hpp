#pragma once
// `tct expect --sweep NAME=v1,v2,...`: the spec, and the loop that measures each value and
// keeps going when one fails. Measuring a point is the caller's (cmd_expect.cpp) job.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::runner {

using json = nlohmann::json;

struct SweepSpec {
  std::string param;
  std::vector<json> values;  // each a JSON literal when it parses as one, else a string
};

// "batch=1,8,64" -> {batch, [1, 8, 64]}. Throws tct::Error (usage, exit 2) for a missing
// '=', an empty name, an empty value list or an empty value.
SweepSpec parse_sweep(const std::string& text);

// Calls measure(value) for each value in order; measure returns the point's fields. A
// tct::Error (except an interrupt, which propagates) becomes the point's
// error {kind, message, hint, stage} and the sweep goes on. on_point(points so far) runs
// after each point. Each point is {value, error: null|{...}, ...fields}.
json run_sweep(const SweepSpec& spec, const std::function<json(const json& value)>& measure,
               const std::function<void(const json& points)>& on_point = {});

// Prefixes "label: " to the messages of warnings[from..] (those one sweep point added), so
// that a warning says which point it is about and the same warning at two points stays two
// distinct lines.
void name_point_in_warnings(json& warnings, std::size_t from, const std::string& label);

// Where the class changes between consecutive successful points:
// [{from_value, to_value, from_class, to_class}].
json class_changes(const json& points);

}  // namespace tct::runner
