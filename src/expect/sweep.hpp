#pragma once
// `tct expect --sweep NAME=v1,v2,...`: the spec, and the loop that measures each value and
// keeps going when one fails. Measuring a point is the caller's (cmd_expect.cpp) job.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect/result.hpp"

namespace tct::expect {

using json = nlohmann::json;

struct SweepSpec {
  std::string param;
  std::vector<SweepValue> values;  // each a JSON literal when it parses as one, else a string
};

// "batch=1,8,64" -> {batch, [1, 8, 64]}. Throws tct::Error (usage, exit 2) for a missing
// '=', an empty name, an empty value list, an empty value or a list or object literal (a
// value is one number, word, true, false or null).
SweepSpec parse_sweep(const std::string& text);

// Calls measure(value) for each value in order; measure returns the point. A tct::Error
// (except an interrupt, which propagates) becomes the point's error {kind, message, hint,
// stage (null without one), exit_code} and the sweep goes on. on_point(points so far) runs after each point.
// Each point's value is the value it was measured at.
std::vector<SweepPoint> run_sweep(const SweepSpec& spec,
                                  const std::function<SweepPoint(const SweepValue& value)>& measure,
                                  const std::function<void(const std::vector<SweepPoint>& points)>& on_point = {});

}  // namespace tct::expect
