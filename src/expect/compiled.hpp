#pragma once
// What torch.compile really did with the target (the logged compiled run that `tct
// explain` reads through the trace reader), folded into expect's answer. The expect model
// predicts the gain of a fully captured function; a frame Dynamo skips compiles nothing
// (no gain until it is fixed), and graph breaks split the function into pieces with Python
// between them (the gain can fall to nothing). The model itself is untouched: this file
// only bounds and labels its range, and ranks the fix first.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect/classifier.hpp"
#include "expect/result.hpp"
#include "explain/result.hpp"

namespace tct::expect {

using json = nlohmann::json;

struct CompiledRun {
  bool known = false;  // the compiled run was logged (else nothing is folded)
  int graphs = 0;
  int graph_breaks = 0;
  std::vector<explain::SkippedFrame> skipped_frames;
  std::optional<explain::BreakGroup> top_group;    // the most frequent break group
  std::vector<core::EagerPart> eager_parts;        // what runs eagerly on every call (explain's)
  std::optional<explain::GraphShare> graph_share;  // of an eager call, inside the captured graphs
  bool nothing_compiled() const { return known && graphs == 0 && !skipped_frames.empty(); }
  // Some of the code runs eagerly on every call while the rest compiles.
  bool eager_in_part() const { return known && !nothing_compiled() && !eager_parts.empty(); }
  // The share of an eager call the graphs cover, when it was measured (NaN when not).
  double compiled_share() const;
};

// Amdahl's law over one call: the compiled share of an eager call sped up by `speedup`, the
// rest (code that runs eagerly, Python between graphs) at 1.0x, plus what Dynamo adds around
// the graphs (`overhead`, a share of the eager call; 0 when not measured):
// 1 / ((1 - share) + share / speedup + overhead). NaN in, NaN out.
double amdahl_speedup(double compiled_share, double speedup, double overhead = 0);

// From explain's result (explain::run_explain's, or the audit's section read back); unknown
// when its counts are not from the compiled run.
CompiledRun compiled_run_of(const explain::ExplainResult& explain);

// The range the model predicts for a fully captured function, as the run bounds it:
// nothing compiled -> exactly 1.0x; code that runs eagerly on every call -> the range applies
// to the compiled share of the call only, from no gain on that share (1.0x, less the model's
// error: the captured low end over its point) to the captured high
// end, with Dynamo's measured overhead per call (amdahl_speedup of each end; the low end pays
// compiled_call_share too, the fixed cost of a compiled call over the eager call's time: the
// compiled graphs' wrappers; without a measured share the low end down to 1.0x); graph breaks
// -> the low end down to 1.0x (the breaks may eat the gain); else as it is.
SpeedupRange bound_prediction(const SpeedupRange& captured, const CompiledRun& run, double compiled_call_share);

// What the predicted range assumes of the run.
Assumes prediction_assumes(const CompiledRun& run);

// The result's compiled_run: the run's counts, the skipped frames, and the model's range for
// the captured function (what fixing the breaks could bring); none when the run is unknown.
std::optional<CompiledRunSummary> summarize(const CompiledRun& run, const SpeedupRange& captured);

// The suggestion that comes before any other when the run skipped a frame or broke the
// graph (none when neither), for target (the spec `tct explain` takes). It has no
// expected_gain: nothing else pays until it is done.
std::optional<Suggestion> fix_first_suggestion(const CompiledRun& run, const std::string& target);

// suggestions with first (when there is one) in front, ranks renumbered 1..n.
std::vector<Suggestion> put_first(const std::optional<Suggestion>& first, std::vector<Suggestion> suggestions);

}  // namespace tct::expect
