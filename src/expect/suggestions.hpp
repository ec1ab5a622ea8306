#pragma once
// What to try next, ranked by expected value, each tied to the evidence that motivates it.
#include <string>

#include <nlohmann/json.hpp>

#include "expect/classifier.hpp"
#include "expect/evidence.hpp"

namespace tct::expect {

struct SuggestionContext {
  json params = json::object();  // the target's factory parameters (to find a batch size)
  std::string dtype;             // "float32", ... (from target.load's description)
  bool train = false;
  bool sweep_changes_shapes = false;  // a --sweep whose values changed the input shapes
  std::string sweep_param;
};

// [{rank, title, why, how, expected_gain}], best first. expected_gain is a rough factor
// (>= 1) the suggestion could bring on top of eager; only its order matters.
json suggest(const Evidence& e, const Verdict& v, const SuggestionContext& ctx);

// A factory parameter that looks like a batch size (batch, batch_size, bs, n_batch), or "".
std::string batch_param(const json& params);

}  // namespace tct::expect
