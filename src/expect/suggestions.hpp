#pragma once
// What to try next, ranked by expected value, each tied to the evidence that motivates it.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect/classifier.hpp"
#include "expect/evidence.hpp"
#include "expect/result.hpp"

namespace tct::expect {

struct SuggestionContext {
  json params = json::object();  // the target's factory parameters (to find a batch size)
  std::string dtype;             // "float32", ... (from target.load's description)
  bool train = false;
  bool sweep_changes_shapes = false;  // a --sweep whose values changed the input shapes
  std::string sweep_param;
};

// Ranked 1..n, best first. expected_gain is a rough factor (>= 1) the suggestion could bring
// on top of eager, rounded to two decimals as the document writes it; only its order matters.
std::vector<Suggestion> suggest(const Evidence& e, const Verdict& v, const SuggestionContext& ctx);

// The title of the suggestion to compile the target as it is (Suggestion::compile_as_is): a
// document records the suggestion by its words, so its title is how one read back is known.
inline constexpr std::string_view kCompileAsIsTitle =
    "Compile it: fuse the elementwise ops and drop the per-op overhead";

// A factory parameter that looks like a batch size (batch, batch_size, bs, n_batch), or "".
std::string batch_param(const json& params);

}  // namespace tct::expect
